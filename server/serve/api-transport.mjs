// The node:http transport of the request core: a request for an operation of the catalog is handed
// to the operation's core run (server/http/request-core.ts) as a plain TIncoming, and its answer is
// written with res.end(). Everything else, and every request this module is not sure about, goes to
// Next. "Not sure" is deliberate and wide: any input Next treats specially (a trailing slash, `//`, a
// dot segment, a malformed escape, HEAD/OPTIONS, Next's own headers) is left to Next, which answers it
// as it always has; both then run the same core.
import { once } from "node:events";
import { logLine } from "../log/line-writer.mjs";
import { operationTable } from "./operation-table.mjs";

/**
 * @typedef {import("../http/exchange.ts").TIncoming} TIncoming
 * @typedef {import("../http/exchange.ts").TAnswer} TAnswer
 * @typedef {(req: TIncoming, params: Record<string, string>) => Promise<TAnswer>} TRun
 * @typedef {{ method: string; path: string; run: TRun }} TPublishedOperation
 */

const DOT_SEGMENT = /\/\.{1,2}(\/|$)/;
const SUSPECT_PATH = /[.%\\]|\/\//;
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// Requests carrying these are Next's business (server actions, RSC navigation, prefetches).
const NEXT_HEADERS = ["next-action", "rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "x-nextjs-data"];
// Next sends this on every app route's answer; so does this transport, so that a client cannot tell
// them apart. Next does not compress route handlers' answers, so neither does this.
const APP_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";
// Bodies up to this size (the largest any operation accepts) are read whole before the core runs:
// one Buffer, without a stream in between.
const WHOLE_BODY_BYTES = 64 * 1024;

/**
 * The request handler of the operations the composition root published (server/api/publish.ts).
 * @param {{ operations: TPublishedOperation[]; contextPath: string; hostname: string; port: number }} opts
 */
export function apiTransport(opts) {
  const table = operationTable(opts.operations);
  const ctx = opts.contextPath;

  /**
   * Serves `req` when it is a catalog operation's; returns false (having touched nothing) otherwise.
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  function handle(req, res) {
    const method = req.method ?? "GET";
    if (!METHODS.has(method)) return false;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const fullPath = q === -1 ? url : url.slice(0, q);
    if (ctx && !fullPath.startsWith(`${ctx}/`)) return false;
    const path = fullPath.slice(ctx.length);
    // Next redirects these (308) or treats them specially; rare enough to leave to it.
    if (path.length > 1 && path.endsWith("/")) return false;
    // Nearly every API path has no dot, percent sign, backslash or empty segment: one scan clears it.
    if (SUSPECT_PATH.test(path)) {
      // Dot segments, also percent-encoded ones, which URL parsing resolves: `/a/../b`, `/a/%2e%2e/b`.
      if (path.includes("//") || path.includes("\\") || DOT_SEGMENT.test(path) || /%2e/i.test(path)) return false;
      // Next's own suffixes for React Server Components payloads.
      if (/\.(rsc|segments)$/.test(path)) return false;
    }
    for (const h of NEXT_HEADERS) if (req.headers[h] !== undefined) return false;
    const found = table.resolve(method, path);
    if (!found) return false;
    if (path.includes("%") && !sameRoute(table, method, path, found.run)) return false;
    const search = q === -1 || q === url.length - 1 ? "" : url.slice(q);
    fillForwarded(req, opts);
    const serve = (/** @type {Buffer | undefined} */ whole) =>
      // Inside the promise: a synchronous throw is answered too, not left as an unhandled rejection.
      Promise.resolve()
        .then(() => found.run(incomingOf(req, path, search, whole), found.params))
        .then((answer) => writeAnswer(res, answer, method))
        .catch((e) => {
          // The core answers every error itself; reaching this is a bug in this transport.
          logLine("error", "api transport failed", { err: String(e?.stack ?? e) });
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        });
    // A small body is read whole first; a client gone before sending it all has nobody left to answer.
    if (wholeBodyLength(req) === undefined) serve(undefined);
    else readWholeBody(req).then(serve, () => undefined);
    return true;
  }

  return { handle };
}

/**
 * Next matches static routes on the decoded path too: a path whose escapes, decoded, name another
 * operation or none (`/api/v3/users/%72egister`, `…/a%2Fb`) is left to Next, and so is a malformed
 * escape (proxy.ts refuses it).
 * @param {ReturnType<typeof operationTable>} table @param {string} method @param {string} path @param {unknown} run
 */
function sameRoute(table, method, path, run) {
  let decoded;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return decoded === path || table.resolve(method, decoded)?.run === run;
}

/**
 * Next fills these in when the request has none; browserIp() and the audit trail read them.
 * @param {import("node:http").IncomingMessage} req @param {{ hostname: string; port: number }} at
 */
function fillForwarded(req, at) {
  const h = req.headers;
  const https = h["x-forwarded-proto"] ? h["x-forwarded-proto"] === "https" : Boolean(/** @type {any} */ (req.socket).encrypted);
  h["x-forwarded-host"] ??= h.host ?? at.hostname;
  h["x-forwarded-port"] ??= String(at.port);
  h["x-forwarded-proto"] ??= https ? "https" : "http";
  h["x-forwarded-for"] ??= req.socket.remoteAddress;
}

/**
 * A node:http request as the core reads it.
 * @param {import("node:http").IncomingMessage} req @param {string} path @param {string} search
 * @param {Buffer | undefined} whole the body, read whole already
 * @returns {TIncoming}
 */
function incomingOf(req, path, search, whole) {
  const h = req.headers;
  return {
    method: /** @type {string} */ (req.method),
    path,
    search,
    headers: {
      get(name) {
        const value = h[name.toLowerCase()];
        if (value === undefined || !Object.hasOwn(h, name.toLowerCase())) return null;
        return Array.isArray(value) ? value.join(", ") : value;
      },
    },
    readBody: (limit) => (whole ? Promise.resolve(whole.length <= limit ? whole : undefined) : readLimited(req, limit)),
  };
}

/**
 * The body's declared length when it is small enough to read whole before the core runs; undefined
 * for a chunked or larger body, which the core reads up to its own limit.
 * @param {import("node:http").IncomingMessage} req
 */
function wholeBodyLength(req) {
  if (req.method === "GET" || req.headers["transfer-encoding"] !== undefined) return undefined;
  const declared = req.headers["content-length"];
  if (declared === undefined || !/^\d{1,6}$/.test(declared) || declared === "0") return undefined;
  const n = Number(declared);
  return n <= WHOLE_BODY_BYTES ? n : undefined;
}

/**
 * Reads a body whose length wholeBodyLength() vouched for; rejects when the client goes away first.
 * @param {import("node:http").IncomingMessage} req @returns {Promise<Buffer>}
 */
function readWholeBody(req) {
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

// Set on a request whose body the core began to read and then dropped (past its limit).
const ABANDONED = Symbol("idp.body-abandoned");

/**
 * A streamed body (chunked, or larger than it says) up to `limit` bytes; undefined past it, having
 * stopped reading: writeAnswer drains the rest so the connection survives.
 * @param {import("node:http").IncomingMessage} req @param {number} limit
 * @returns {Promise<Buffer | undefined>}
 */
function readLimited(req, limit) {
  const hasBody = req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0";
  if (!hasBody || req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      /** @type {any} */ (req)[ABANDONED] = true;
      resolve(undefined);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onClose = () => {
      // Closed before its end: the client went away mid-body.
      if (req.complete) return;
      stop();
      reject(new Error("request aborted"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
  });
}

// How much of a dropped body is still read so the connection can serve the client's next request.
const DRAIN_LIMIT = 1024 * 1024;

/**
 * Reads and drops the rest of a body the core stopped reading, so the client can finish sending it,
 * read the answer and reuse the connection. Past DRAIN_LIMIT the connection is closed.
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
 * Writes the core's answer; a stream body is written as it comes, and a client that goes away
 * cancels it (an export streaming rows stops reading the database).
 * @param {import("node:http").ServerResponse} res @param {TAnswer} answer @param {string} method
 */
export async function writeAnswer(res, answer, method) {
  res.statusCode = answer.status;
  const req = res.req;
  if (/** @type {any} */ (req)[ABANDONED] && !req.complete) drain(req);
  res.appendHeader("vary", APP_VARY);
  const headers = answer.headers;
  for (const name in headers) res.setHeader(name, /** @type {string | string[]} */ (headers[name]));
  const body = answer.body;
  // As a Response would: text without a type of its own is plain text.
  if (typeof body === "string" && headers["content-type"] === undefined) res.setHeader("content-type", "text/plain;charset=UTF-8");
  if (body === null || method === "HEAD") return void res.end();
  if (typeof body === "string" || body instanceof Uint8Array) return void res.end(body);
  const reader = body.getReader();
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
