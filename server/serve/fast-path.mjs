// The fast path: requests for an operation of the catalog go straight to the handler that the
// operation's app/ route file exports, without Next's request pipeline; everything else, and every
// request this module is not sure about, goes to Next. "Not sure" is deliberate and wide: the fast path
// is an optimisation, so any input Next treats specially (a trailing slash, `//`, a malformed escape,
// HEAD/OPTIONS, Next's own headers) is left to Next, which answers it as it always has.
//
// No route table is written by hand. The routes are the production build's app route modules
// (.next/server/app/**/route.js, listed by Next's app-paths manifest), required from the same files
// Next requires, so handler, caches and every other module-level value exist once, shared with Next;
// route-table.mjs picks among them as Next would.
// A route file is served here when one of its handlers carries `.operation` (defineRoute attaches it:
// it is an operation of the catalog, server/http/catalog.ts) and none needs Next's request scope.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PATH_PARAMS } from "../http/server-handoff.mjs";
import { logLine } from "../log/line-writer.mjs";
import { readWholeBody, sendWebResponse, toWebRequest, wholeBodyLength } from "./node-web.mjs";
import { routeTable } from "./route-table.mjs";

const require = createRequire(import.meta.url);
const { normalizeAppPath } = require("next/dist/shared/lib/router/utils/app-paths.js");

const DOT_SEGMENT = /\/\.{1,2}(\/|$)/;
const SUSPECT_PATH = /[.%\\]|\/\//;
const FAST_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// Requests carrying these are Next's business (server actions, RSC navigation, prefetches).
const NEXT_HEADERS = ["next-action", "rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "x-nextjs-data"];

/**
 * @typedef {{ page: string; handlers: Record<string, (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>> }} TFastRoute
 * @typedef {{ page: string; fast?: TFastRoute }} TEntry
 */

/**
 * Loads every app route module of the build in `dir` and returns the request handler of the fast
 * path plus what it serves. Call after Next's app.prepare(), so Next's require hooks are in place.
 * @param {{ dir: string; contextPath: string; hostname: string; port: number; distDir?: string }} opts
 */
export async function loadFastPath(opts) {
  const distDir = path.join(opts.dir, opts.distDir ?? ".next");
  /** @type {Record<string, string>} */
  const manifest = JSON.parse(readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8"));
  /** @type {TEntry[]} */
  const entries = [];
  const operations = [];
  for (const [key, file] of Object.entries(manifest)) {
    // "/(group)/x/page" → "/x", as Next names the route it serves.
    const page = normalizeAppPath(key);
    /** @type {TEntry} */
    const entry = { page };
    if (key.endsWith("/route")) {
      const mod = require(path.join(distDir, "server", file));
      await mod.routeModule.ensureUserland();
      const userland = mod.routeModule.userland;
      const ops = Object.values(userland).flatMap((h) => (typeof h === "function" && h.operation ? [h.operation] : []));
      if (ops.length && !ops.some((op) => op.nextRequestScope)) {
        entry.fast = { page, handlers: Object.fromEntries(Object.entries(userland).filter(([m, h]) => FAST_METHODS.has(m) && typeof h === "function")) };
        operations.push(...ops.map((op) => `${op.method} ${op.path}`));
      }
    }
    entries.push(entry);
  }
  const { resolve, isStatic } = routeTable(entries);
  /**
   * Serves `req` when it is a catalog operation's; returns false (having touched nothing) otherwise.
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   */
  function handle(req, res) {
    const method = req.method ?? "GET";
    if (!FAST_METHODS.has(method)) return false;
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const fullPath = q === -1 ? url : url.slice(0, q);
    const ctx = opts.contextPath;
    if (ctx && !fullPath.startsWith(`${ctx}/`)) return false;
    const rawPath = fullPath.slice(ctx.length);
    // Next redirects these (308) or treats them specially; rare enough to leave to it.
    if (rawPath.length > 1 && rawPath.endsWith("/")) return false;
    // Nearly every API path has no dot, percent sign, backslash or empty segment: one scan clears
    // it of all the cases below, which otherwise took three patterns over the whole path.
    if (SUSPECT_PATH.test(rawPath)) {
      // Dot segments, also percent-encoded ones, which URL parsing resolves: `/a/../b`, `/a/%2e%2e/b`.
      if (rawPath.includes("//") || rawPath.includes("\\") || DOT_SEGMENT.test(rawPath) || /%2e/i.test(rawPath)) return false;
      if (/\.(rsc|segments)$/.test(rawPath)) return false;
    }
    for (const h of NEXT_HEADERS) if (req.headers[h] !== undefined) return false;
    if (rawPath.includes("%")) {
      // Next matches static routes on the decoded path too, and its proxy (proxy.ts) refuses a
      // malformed escape: both are left to Next.
      let decoded;
      try {
        decoded = decodeURIComponent(rawPath);
      } catch {
        return false;
      }
      if (decoded !== rawPath && isStatic(decoded)) return false;
    }
    const found = resolve(rawPath);
    const handler = found?.entry.fast?.handlers[method];
    if (!found || !handler) return false;
    const at = { path: rawPath, search: q === -1 ? "" : url.slice(q), hostname: opts.hostname, port: opts.port };
    const serve = (/** @type {Buffer | undefined} */ body) =>
      // Inside the promise: a synchronous throw is answered too, not left as an unhandled rejection.
      Promise.resolve()
        .then(() => handler(toWebRequest(req, at, body), { params: Promise.resolve(found.params), [PATH_PARAMS]: found.params }))
        .then((response) => sendWebResponse(res, response, method))
        .catch((e) => {
          // defineRoute answers every error itself; reaching this is a bug in the fast path.
          logLine("error", "fast path failed", { err: String(e?.stack ?? e) });
          if (!res.headersSent) res.statusCode = 500;
          res.end();
        });
    // A small body is read whole first (node-web.mjs says why); a client gone before sending it all
    // has nobody left to answer.
    if (wholeBodyLength(req) === undefined) serve(undefined);
    else readWholeBody(req).then(serve, () => undefined);
    return true;
  }

  return { handle, operations, routes: entries.filter((e) => e.fast).map((e) => e.page) };
}
