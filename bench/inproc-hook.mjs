// Preloaded into the bench server (`node --import bench/inproc-hook.mjs server/serve/server.mjs`) by
// `BENCH_INPROC=1 node bench/reads-cpu.mjs`: on SIGUSR2 it calls the server's own request listener
// with stand-ins for node:http's request and response, for each row in BENCH_INPROC_ROWS (a JSON
// file), and writes the
// JavaScript time per request to BENCH_INPROC_OUT. No socket, kernel or load generator takes part:
// what differs between two rows here is the work of our code and of the route handling alone, which
// under load on this VM's loopback the machine's own noise hides (bench/README.md).
import http from "node:http";
import { performance } from "node:perf_hooks";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

/** @type {((req: unknown, res: unknown) => void) | undefined} */
let listener;
const listen = http.Server.prototype.listen;
// tls.mjs binds node:http's createServer at import, so the listener is taken where the server listens.
http.Server.prototype.listen = function (...args) {
  listener ??= this.listeners("request")[0];
  return listen.apply(this, args);
};

const socket = { remoteAddress: "127.0.0.1", remotePort: 40000, encrypted: false, destroy() {} };

/** One request through the listener; resolves when the response ends. */
function call(method, url, headers) {
  return new Promise((resolve) => {
    const req = { method, url, headers: { host: "127.0.0.1", connection: "keep-alive", ...headers }, socket, complete: true, on() {}, once() {}, off() {}, resume() {} };
    const res = {
      statusCode: 200,
      req,
      headersSent: false,
      headers: {},
      appendHeader(n, v) { this.headers[n] = v; },
      setHeader(n, v) { this.headers[n] = v; },
      once() {},
      off() {},
      end(body) {
        resolve({ status: this.statusCode, headers: this.headers, body: body === undefined ? "" : String(body) });
      },
    };
    listener(req, res);
  });
}

process.on("SIGUSR2", async () => {
  const spec = JSON.parse(readFileSync(process.env.BENCH_INPROC_ROWS, "utf8"));
  const { rounds = 5, calls = 20_000, parallel = 16 } = spec;
  /** @type {Record<string, number[]>} */
  const times = {};
  /** @type {Record<string, string[]>} each round's window on the CPU profile's clock (µs) */
  const windows = {};
  const checks = {};
  for (const row of spec.rows) {
    // What the row answers (the bench checks it is a 200), then every path once: the caches hold
    // what a loaded server's do.
    checks[row.name] = await call("GET", row.paths[0], row.headers);
    for (const p of row.paths) await call("GET", p, row.headers);
  }
  for (let r = 0; r < rounds; r++) {
    for (const row of spec.rows) {
      let next = 0;
      const t0 = performance.now();
      const w0 = process.hrtime.bigint() / 1000n;
      // `parallel` requests in flight, as the load generator's connections keep them.
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < calls) {
            const p = row.paths[next++ % row.paths.length];
            await call("GET", p, row.headers);
          }
        }),
      );
      (times[row.name] ??= []).push(((performance.now() - t0) * 1000) / calls);
      (windows[row.name] ??= []).push(`${w0} ${process.hrtime.bigint() / 1000n}`);
    }
  }
  // Whole or not at all: the bench waits for the file to appear.
  writeFileSync(`${process.env.BENCH_INPROC_OUT}.part`, JSON.stringify({ times, checks, windows }));
  renameSync(`${process.env.BENCH_INPROC_OUT}.part`, process.env.BENCH_INPROC_OUT);
});

