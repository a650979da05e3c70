// A loopback proxy in front of PostgreSQL that counts the statements the server sends, as PostgreSQL
// receives them: every simple query ('Q': BEGIN, COMMIT, …) and every execution of a prepared one
// ('E'), whatever library or adapter sent it. The server is started with the proxy's address in its
// DATABASE_URL; nothing in the server knows it is counted. Used by bench/sign-in-cpu.mjs.
import net from "node:net";

const SSL_REQUEST = 80877103;

/**
 * Reads a client's stream of frontend messages: the untyped startup message first (an SSL request
 * before it is refused with 'N', so the client goes on in plain text), then typed messages.
 */
function frontendReader(onMessage) {
  let buffer = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        buffer = buffer.subarray(length);
        if (code !== SSL_REQUEST) started = true;
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      onMessage(String.fromCharCode(buffer[0]), buffer.subarray(5, 1 + length));
      buffer = buffer.subarray(1 + length);
    }
  };
}

const cString = (body, from = 0) => body.subarray(from, body.indexOf(0, from)).toString("utf8");

/** Starts the proxy; `statements` is the running count, `recent` the texts while `record` is on. */
export async function countingProxy(target) {
  const counter = { statements: 0, record: false, recent: [] };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const prepared = new Map();
    let unnamed = "";
    let bound = "";
    const seen = (text) => {
      counter.statements += 1;
      if (counter.record) counter.recent.push(text.replace(/\s+/g, " ").slice(0, 160));
    };
    const read = frontendReader((type, body) => {
      if (type === "Q") seen(cString(body));
      else if (type === "P") {
        const name = cString(body);
        const text = cString(body, name.length + 1);
        if (name) prepared.set(name, text);
        else unnamed = text;
      } else if (type === "B") {
        const name = cString(body, cString(body).length + 1);
        bound = name ? (prepared.get(name) ?? name) : unnamed;
      } else if (type === "E") seen(bound);
    });
    client.on("data", (chunk) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { counter, port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}
