// Turns a node:http request into the Web Request a route handler expects, and its Web Response back
// into the node:http answer, the way Next's own pipeline does for app route handlers (Next 16.4:
// server/base-server.js for the x-forwarded-* headers, server/lib/router-server.js for the internal
// headers it drops, server/send-response.js for the answer), so a handler cannot tell which path
// served it.
import { once } from "node:events";
import { createRequire } from "node:module";
import { MAX_BODY_BYTES, RAW_BODY, REQUEST_TARGET, STRING_BODY } from "../http/server-handoff.mjs";
/* global Headers, ReadableStream, Request */

const require = createRequire(import.meta.url);
/** @type {(headers: import("node:http").IncomingHttpHeaders) => void} */
const { filterInternalHeaders } = require("next/dist/server/lib/server-ipc/utils.js");

// Next 16.4 sends this on every app route's answer (base-server.js setVaryHeader; this app has no
// interception routes, which would add Next-Url). Next does not compress route handlers' answers
// (measured: no Content-Encoding even for 1.7 KB with Accept-Encoding: gzip), so neither does this.
const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

// A body read whole before the handler ran travels on RAW_BODY: server/http/parse.ts, the only reader
// of request bodies, takes it from there. A Web stream costs three times what the rest of the
// Request does (on Node 20's undici: ~50 µs of a token request's ~650 µs), for a body that is whole
// at once. Bodies up to MAX_BODY_BYTES, the largest any operation accepts, are read whole.

/**
 * The body's declared length when it is small enough to read whole before the handler runs; undefined
 * for a chunked or larger body, which stays a stream the handler reads up to its own limit.
 * @param {import("node:http").IncomingMessage} req
 */
export function wholeBodyLength(req) {
  if (req.method === "GET" || req.method === "HEAD" || req.headers["transfer-encoding"] !== undefined) return undefined;
  const declared = req.headers["content-length"];
  if (declared === undefined || !/^\d{1,6}$/.test(declared)) return undefined;
  const n = Number(declared);
  return n <= MAX_BODY_BYTES ? n : undefined;
}

/**
 * Reads a body whose length wholeBodyLength() vouched for; rejects when the client goes away first.
 * @param {import("node:http").IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
export function readWholeBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? /** @type {Buffer} */ (chunks[0]) : Buffer.concat(chunks)));
    req.once("close", () => {
      if (!req.complete) reject(new Error("request aborted"));
    });
  });
}

/**
 * @param {import("node:http").IncomingMessage} req
 * @param {{ path: string; search: string; hostname: string; port: number }} at
 *   `path` is the raw path below the context path: route handlers see req.url without Next's basePath.
 * @param {Buffer} [wholeBody] the body, read whole already (readWholeBody)
 * @returns {Request}
 */
export function toWebRequest(req, at, wholeBody) {
  const h = req.headers;
  if (!process.env.NEXT_PRIVATE_TEST_HEADERS) filterInternalHeaders(h);
  // Next fills these in when the request has none; browserIp() and the audit trail read them.
  const https = h["x-forwarded-proto"] ? h["x-forwarded-proto"] === "https" : Boolean(/** @type {any} */ (req.socket).encrypted);
  h["x-forwarded-host"] ??= h.host ?? at.hostname;
  h["x-forwarded-port"] ??= String(at.port);
  h["x-forwarded-proto"] ??= https ? "https" : "http";
  h["x-forwarded-for"] ??= req.socket.remoteAddress;
  delete h["next-url"];
  const headers = lightHeaders(h);
  const method = req.method ?? "GET";
  const url = `${https ? "https" : "http"}://${at.hostname}:${at.port}${at.path}${at.search}`;
  /** @type {TLight} */
  const light = Object.create(LIGHT_REQUEST);
  light[LIGHT] = { method, url, path: at.path, search: at.search, headers, req, whole: wholeBody, real: undefined, plain: undefined };
  if (wholeBody) Object.defineProperty(light, RAW_BODY, { value: wholeBody });
  return /** @type {Request} */ (/** @type {unknown} */ (light));
}

/**
 * A Request by prototype whose method, url and headers are plain values, and whose undici Request is
 * made only when something else of it is asked for (its body stream, signal, clone(), text() …), as
 * @hono/node-server does. The handlers read method, url and headers, and bodies through
 * server/http/parse.ts, which takes a body read whole from RAW_BODY: so a request normally never
 * builds the undici Request, whose constructor (AbortSignal, URL parse, header checks, body stream)
 * cost a sixth of a token request's CPU (bench/README.md).
 * @typedef {{ method: string; url: string; path: string; search: string; headers: Headers; req: import("node:http").IncomingMessage; whole: Buffer | undefined; real: Request | undefined; plain: boolean | undefined; href?: string }} TLightState
 * @typedef {{ [LIGHT]: TLightState }} TLight
 */
const LIGHT = Symbol("idp.light-request");

/** @param {TLight} light @returns {Request} */
function realRequest(light) {
  const s = light[LIGHT];
  if (s.real) return s.real;
  const hasBody = s.method !== "GET" && s.method !== "HEAD";
  if (s.whole) s.real = new Request(s.url, { method: s.method, headers: s.headers, body: s.whole });
  else {
    // The body stays a stream: parse.ts reads it up to its own limit and stops there.
    s.real = new Request(s.url, {
      method: s.method,
      headers: s.headers,
      body: hasBody ? bodyStream(s.req) : null,
      // undici needs it for a streamed request body (lib.dom's RequestInit does not know it yet).
      duplex: hasBody ? "half" : undefined,
    });
  }
  return s.real;
}

// http(s)://host:port/path?query of characters no part of a URL percent-encodes or changes.
const PLAIN_URL = /^https?:\/\/[a-z0-9.\-[\]:]+\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;
const DEFAULT_PORT = /^(http:\/\/[^/]*:80|https:\/\/[^/]*:443)\//;

/**
 * Whether the URL is one that serializing (and parsing) leaves as it is: a URL of the usual
 * characters (the fast path has refused dot segments and backslashes) without a default port.
 * @param {TLightState} s
 */
const isPlain = (s) => (s.plain ??= PLAIN_URL.test(s.url) && !DEFAULT_PORT.test(s.url));

const LIGHT_REQUEST = Object.create(Request.prototype, {
  method: { get() { return this[LIGHT].method; } },
  // Serialized as a Request would: a raw UTF-8 path comes out percent-encoded, a default port goes.
  url: { get() { const s = this[LIGHT]; return isPlain(s) ? s.url : (s.href ??= new URL(s.url).href); } },
  headers: { get() { return this[LIGHT].headers; } },
  // A plain URL's path and query are the ones given: defineRoute need not parse the URL for them.
  // (URL gives "" for a query of "?" alone.)
  [REQUEST_TARGET]: { get() { const s = this[LIGHT]; return isPlain(s) ? { pathname: s.path, search: s.search === "?" ? "" : s.search } : undefined; } },
});
for (const name of ["body", "bodyUsed", "cache", "credentials", "destination", "duplex", "integrity", "keepalive", "mode", "redirect", "referrer", "referrerPolicy", "signal"]) {
  Object.defineProperty(LIGHT_REQUEST, name, { get() { return /** @type {any} */ (realRequest(this))[name]; } });
}
// util.inspect (console.log of a request) shows the Request it stands for.
Object.defineProperty(LIGHT_REQUEST, Symbol.for("nodejs.util.inspect.custom"), {
  value(/** @type {number} */ depth, /** @type {object} */ options, /** @type {(v: unknown, o: object) => string} */ inspect) {
    return inspect(realRequest(this), options);
  },
});
for (const name of ["arrayBuffer", "blob", "bytes", "clone", "formData", "json", "text"]) {
  Object.defineProperty(LIGHT_REQUEST, name, { value() { const real = /** @type {any} */ (realRequest(this)); return real[name](); } });
}

/**
 * The request's headers: a Headers by prototype that answers get() and has() from node:http's parsed
 * headers (names in lower case, values checked by its parser), and builds undici's Headers only when
 * something else of it is asked for (iteration, a change, getSetCookie() …), which from then on
 * answers everything. A handler reads a few headers by name; building the Headers validated every
 * name and value again, a bearer token's hundreds of characters among them, on every request.
 * @typedef {{ h: import("node:http").IncomingHttpHeaders; real: Headers | undefined }} TLightHeadersState
 */
const NODE_HEADERS = Symbol("idp.node-headers");

/** @param {import("node:http").IncomingHttpHeaders} h @returns {Headers} */
function lightHeaders(h) {
  const light = Object.create(LIGHT_HEADERS);
  light[NODE_HEADERS] = { h, real: undefined };
  return light;
}

/** @param {TLightHeadersState} s @returns {Headers} */
function realHeaders(s) {
  if (s.real) return s.real;
  const headers = new Headers();
  for (const name in s.h) {
    const value = s.h[name];
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  return (s.real = headers);
}

// A header name as Fetch accepts it (RFC 9110 token); a name given to get() that is not one makes
// undici's Headers throw, as it would have.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** @type {Map<string, string>} the names handlers ask for, in lower case (a handful: the code's own literals) */
const LOWER = new Map();

/**
 * A header's value as undici's Headers.get() gives it; undefined when only undici can say.
 * @param {TLightHeadersState} s @param {unknown} name
 */
function lightGet(s, name) {
  if (typeof name !== "string") return undefined;
  let key = LOWER.get(name);
  if (key === undefined) {
    if (!TOKEN.test(name) || LOWER.size >= 256) return undefined;
    LOWER.set(name, (key = name.toLowerCase()));
  }
  // Own properties only: node:http's object has Object.prototype ("constructor" is no header).
  const value = Object.hasOwn(s.h, key) ? s.h[key] : undefined;
  if (value === undefined) return null;
  // undici trims blanks at either end of a value; node:http's parser has trimmed them already.
  return Array.isArray(value) ? value.join(", ") : value;
}

const LIGHT_HEADERS = Object.create(Headers.prototype);
for (const name of [...Object.getOwnPropertyNames(Headers.prototype), ...Object.getOwnPropertySymbols(Headers.prototype)]) {
  const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(Headers.prototype, name));
  if (name === "constructor" || typeof d.value !== "function") continue;
  const method = d.value;
  Object.defineProperty(LIGHT_HEADERS, name, {
    value(/** @type {unknown[]} */ ...args) {
      return method.apply(realHeaders(this[NODE_HEADERS]), args);
    },
    writable: true,
    configurable: true,
  });
}
Object.defineProperties(LIGHT_HEADERS, {
  get: {
    value(/** @type {string} */ name) {
      const s = this[NODE_HEADERS];
      const value = s.real ? undefined : lightGet(s, name);
      return value === undefined ? realHeaders(s).get(name) : value;
    },
  },
  has: {
    value(/** @type {string} */ name) {
      const s = this[NODE_HEADERS];
      const value = s.real ? undefined : lightGet(s, name);
      return value === undefined ? realHeaders(s).has(name) : value !== null;
    },
  },
});

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
  // A body the handler made as a string (server/http/string-response.ts) goes out whole, with its
  // Content-Length, without a stream in between.
  const text = /** @type {any} */ (response)[STRING_BODY];
  if (text !== undefined) {
    res.end(text === null || method === "HEAD" ? undefined : text);
    return;
  }
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
