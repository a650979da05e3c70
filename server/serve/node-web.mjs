// Turns a node:http request into the Web Request a route handler expects, and its Web Response back
// into the node:http answer, the way Next's own pipeline does for app route handlers (Next 16.4:
// server/base-server.js for the x-forwarded-* headers, server/lib/router-server.js for the internal
// headers it drops, server/send-response.js for the answer), so a handler cannot tell which path
// served it.
import { once } from "node:events";
import { createRequire } from "node:module";
/* global Headers, ReadableStream, Request */

const require = createRequire(import.meta.url);
/** @type {(headers: import("node:http").IncomingHttpHeaders) => void} */
const { filterInternalHeaders } = require("next/dist/server/lib/server-ipc/utils.js");

// Next 16.4 sends this on every app route's answer (base-server.js setVaryHeader; this app has no
// interception routes, which would add Next-Url). Next does not compress route handlers' answers
// (measured: no Content-Encoding even for 1.7 KB with Accept-Encoding: gzip), so neither does this.
const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {{ path: string; search: string; hostname: string; port: number }} at
 *   `path` is the raw path below the context path: route handlers see req.url without Next's basePath.
 * @returns {Request}
 */
export function toWebRequest(req, at) {
  const h = req.headers;
  if (!process.env.NEXT_PRIVATE_TEST_HEADERS) filterInternalHeaders(h);
  // Next fills these in when the request has none; browserIp() and the audit trail read them.
  const https = h["x-forwarded-proto"] ? h["x-forwarded-proto"] === "https" : Boolean(/** @type {any} */ (req.socket).encrypted);
  h["x-forwarded-host"] ??= h.host ?? at.hostname;
  h["x-forwarded-port"] ??= String(at.port);
  h["x-forwarded-proto"] ??= https ? "https" : "http";
  h["x-forwarded-for"] ??= req.socket.remoteAddress;
  delete h["next-url"];
  const headers = new Headers();
  for (const name in h) {
    const value = h[name];
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  // The body stays a stream: parse.ts reads it up to its own limit and stops there.
  return new Request(`${https ? "https" : "http"}://${at.hostname}:${at.port}${at.path}${at.search}`, {
    method,
    headers,
    body: hasBody ? bodyStream(req) : null,
    // undici needs it for a streamed request body (lib.dom's RequestInit does not know it yet).
    duplex: hasBody ? "half" : undefined,
  });
}

// Set on a request whose body the handler began to read and then dropped (parse.ts past its limit).
const ABANDONED = Symbol("idp.body-abandoned");

/**
 * The request body as a Web stream, with back-pressure, read from the request only once the handler
 * reads it. Unlike Readable.toWeb, which listens at once and destroys the request on cancel:
 * - a body the handler never reads (refused on its Content-Length, or before parsing) is left to
 *   Node, which reads and drops it after the answer and keeps the connection, as under Next;
 * - a body dropped half-read is marked, and sendWebResponse drains it (bounded) so the connection
 *   survives, instead of resetting it under the answer and under the client's next request.
 * @param {import("node:http").IncomingMessage} req
 * @returns {ReadableStream<Uint8Array>}
 */
function bodyStream(req) {
  /** @type {((chunk: Buffer) => void) | undefined} */
  let onData;
  return new ReadableStream({
    pull(controller) {
      if (!onData) {
        let settled = false;
        onData = (chunk) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on("data", onData);
        req.once("end", () => {
          if (!settled) controller.close();
          settled = true;
        });
        req.once("close", () => {
          // Closed before its end: the client went away mid-body.
          if (!settled && !req.complete) controller.error(new Error("request aborted"));
          settled = true;
        });
      }
      req.resume();
    },
    cancel() {
      if (!onData) return;
      req.off("data", onData);
      /** @type {any} */ (req)[ABANDONED] = true;
      req.pause();
    },
    // No read ahead: pull() runs only when the handler reads, so an unread body stays untouched.
  }, { highWaterMark: 0 });
}

// How much of a dropped body is still read so the connection can serve the client's next request.
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads and drops the rest of a body the handler stopped reading, so the client can finish sending
 * it, read the answer and reuse the connection (Next instead resets it under the client's next
 * request, test/api/fast-path-equivalence.test.ts). Past DRAIN_LIMIT the connection is closed.
 * @param {import("node:http").IncomingMessage} req
 */
function drain(req) {
  let left = DRAIN_LIMIT;
  req.on("data", (chunk) => {
    left -= chunk.length;
    if (left < 0) req.socket.destroy();
  });
  req.resume();
}

/**
 * Writes a Web Response to the node:http response, streaming its body; a client that goes away
 * cancels the body (an export streaming rows stops reading the database).
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {string | undefined} method
 */
export async function sendWebResponse(res, response, method) {
  res.statusCode = response.status;
  const req = res.req;
  if (/** @type {any} */ (req)[ABANDONED] && !req.complete) drain(req);
  res.appendHeader("vary", APP_VARY);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => undefined);
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([once(res, "drain"), once(res, "close")]);
      if (res.destroyed) return;
    }
    res.end();
  } finally {
    res.off("close", gone);
  }
}
