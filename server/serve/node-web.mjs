// Turns a node:http request into the Web Request a route handler expects, and its Web Response back
// into the node:http answer, the way Next's own pipeline does for app route handlers (Next 16.4:
// server/base-server.js for the x-forwarded-* headers, server/lib/router-server.js for the internal
// headers it drops, server/send-response.js for the answer), so a handler cannot tell which path
// served it.
import { once } from "node:events";
import { createRequire } from "node:module";
import { Readable } from "node:stream";
/* global Headers, Request */

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
    body: hasBody ? /** @type {ReadableStream} */ (Readable.toWeb(req)) : null,
    // undici needs it for a streamed request body (lib.dom's RequestInit does not know it yet).
    duplex: hasBody ? "half" : undefined,
  });
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
