import net from "node:net";

export type TRawResponse = { status: number; headers: Record<string, string>; text: string };

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf("\r\n", at);
    const size = eol < 0 ? 0 : parseInt(body.subarray(at, eol).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function parse(raw: Buffer): TRawResponse {
  const end = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4);
  const text = (/chunked/i.test(headers["transfer-encoding"] ?? "") ? dechunk(body) : body).toString("utf8");
  return { status: Number(head[0]?.split(" ")[1] ?? 0), headers, text };
}

/**
 * Sends `request` byte for byte (latin1: "\xff" is the byte 0xff) over a fresh connection and reads
 * the whole answer. fetch() and node:http normalise or refuse exactly the requests a fuzzer needs to
 * send (dot segments, raw bytes, broken framing headers), so this speaks HTTP/1.1 itself.
 */
export function rawRequest(host: string, port: number, request: string, timeoutMs = 10_000): Promise<TRawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("end", () => resolve(parse(Buffer.concat(chunks))));
    // Node's HTTP parser may reset the connection right after its own 400: what arrived is the answer.
    socket.on("error", (e) => (chunks.length ? resolve(parse(Buffer.concat(chunks))) : reject(e)));
    socket.write(Buffer.from(request, "latin1"));
  });
}
