// Which app route Next would pick for a path, and its decoded parameters: the fast path's lookup
// (fast-path.mjs). Next's own sorting and patterns decide (Next 16.4 server/lib/router-utils/
// filesystem.js uses exactly these), so precedence and the decoding of path parameters cannot drift
// from Next's; what this module adds only skips work whose answer is known without them.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { getSortedRoutes } = require("next/dist/shared/lib/router/utils/sorted-routes.js");
const { getNamedRouteRegex } = require("next/dist/shared/lib/router/utils/route-regex.js");
const { getRouteMatcher } = require("next/dist/shared/lib/router/utils/route-matcher.js");
const { isDynamicRoute } = require("next/dist/shared/lib/router/utils/is-dynamic.js");

// A segment that is one whole parameter, neither catch-all nor optional: `[subjectId]`.
const WHOLE_PARAM = /^\[([^[\].]+)\]$/;
// Next's matcher strips this from the start of a parameter's value (lib/route-pattern-normalizer.js,
// stripParameterSeparators): a path holding it is left to that matcher.
const NEXT_SEPARATOR = "_NEXTSEP_";

/**
 * @template {{ page: string }} E
 * @typedef {{ entry: E; match: (path: string) => Record<string, string | string[]> | false; prefix: string; shape?: (string | null)[]; slots?: [number, string][] }} TDynamic
 */

/**
 * A lookup over `entries` (one per app route, `page` as Next names it: "/api/v3/users/[subjectId]").
 * @template {{ page: string }} E
 * @param {E[]} entries
 * @returns {{ resolve: (rawPath: string) => { entry: E; params: Record<string, string | string[]> } | undefined; isStatic: (path: string) => boolean }}
 */
export function routeTable(entries) {
  /** @type {Map<string, E>} */
  const statics = new Map();
  /** @type {Map<string, E>} */
  const dynamicPages = new Map();
  for (const e of entries) (isDynamicRoute(e.page) ? dynamicPages : statics).set(e.page, e);
  /** @type {TDynamic<E>[]} */
  const sorted = getSortedRoutes([...dynamicPages.keys()]).map((page) => {
    /** @type {TDynamic<E>} */
    const d = {
      entry: /** @type {E} */ (dynamicPages.get(page)),
      match: getRouteMatcher(getNamedRouteRegex(page, { prefixRouteKeys: true, includePrefix: true, includeSuffix: true })),
      // The segments before the first dynamic one are literal text at the start of Next's pattern: a
      // path that does not start with them cannot match. Up to the segment holding the first
      // parameter (a segment may have text before it: `x-[id]`).
      prefix: page.slice(0, page.lastIndexOf("/", page.indexOf("[")) + 1),
    };
    // Without a catch-all (`[...x]`, also inside `[[...x]]`), a route has a fixed number of
    // segments, each literal text or one holding a parameter (never empty): a path of another
    // length, or whose literal segments differ, cannot match.
    if (!page.includes("[...")) {
      const segments = page.split("/");
      d.shape = segments.map((seg) => (seg.includes("[") ? null : seg));
      // Every parameter a whole segment: a path that fits the shape matches Next's pattern (each
      // `([^/]+?)` takes one non-empty segment), and the parameters are those segments, decoded.
      const slots = segments.flatMap((seg, i) => (seg.includes("[") ? [[i, WHOLE_PARAM.exec(seg)?.[1]]] : []));
      if (slots.every(([, name]) => name !== undefined)) d.slots = /** @type {[number, string][]} */ (slots);
    }
    return d;
  });
  // The routes that can match a path of n segments, in Next's order: those of that length and the
  // catch-alls; and among them, those whose last segment is the path's or a parameter. A request
  // walks only these (a handful), instead of every dynamic route.
  const variable = sorted.filter((d) => !d.shape);
  /** @type {Map<number, { byLast: Map<string, TDynamic<E>[]>; paramLast: TDynamic<E>[] }>} */
  const byLength = new Map();
  for (const d of sorted) {
    const n = d.shape?.length;
    if (n === undefined || byLength.has(n)) continue;
    const group = sorted.filter((x) => !x.shape || x.shape.length === n);
    const lastOf = (/** @type {TDynamic<E>} */ x) => (x.shape ? x.shape[n - 1] : null);
    const byLast = new Map();
    for (const x of group) {
      const last = lastOf(x);
      if (last !== null && last !== undefined && !byLast.has(last)) byLast.set(last, group.filter((y) => lastOf(y) === null || lastOf(y) === last));
    }
    byLength.set(n, { byLast, paramLast: group.filter((y) => lastOf(y) === null) });
  }

  // A fresh path's hash is computed for a Map lookup: done only when a static route is that long.
  const staticLengths = new Set([...statics.keys()].map((p) => p.length));

  /** @param {string} rawPath */
  function resolve(rawPath) {
    const exact = staticLengths.has(rawPath.length) ? statics.get(rawPath) : undefined;
    if (exact) return { entry: exact, params: {} };
    // Next's patterns take a trailing slash too; the shortcuts below assume none (the fast path
    // leaves such paths to Next anyway).
    if (rawPath.length > 1 && rawPath.endsWith("/")) {
      for (const d of sorted) {
        const params = d.match(rawPath);
        if (params) return { entry: d.entry, params };
      }
      return undefined;
    }
    // The path's segments are not cut out (split() cost more than the rest of the lookup): the
    // positions of its slashes say where each one is, and literal segments are compared in place.
    const n = cutsOf(rawPath) + 1;
    // Without an escape (or Next's separator), decoding changes nothing: the segments are the values.
    const plain = !rawPath.includes("%") && !rawPath.includes(NEXT_SEPARATOR);
    const group = byLength.get(n);
    const candidates = group ? (group.byLast.get(rawPath.slice(/** @type {number} */ (cuts[n - 2]) + 1)) ?? group.paramLast) : variable;
    for (const d of candidates) {
      if (!rawPath.startsWith(d.prefix)) continue;
      if (d.shape && !fits(d.shape, rawPath, n)) continue;
      const params = (plain && d.slots && paramsOf(d.slots, rawPath)) || d.match(rawPath);
      if (params) return { entry: d.entry, params };
    }
    return undefined;
  }
  return { resolve, isStatic: (path) => statics.has(path) };
}

// The positions of the slashes of the path being resolved: segment k (as split("/") numbers them,
// the empty one before the leading slash being 0) lies between cuts[k - 1] + 1 and cuts[k] (or the
// path's end). One array for every lookup: resolve() runs to its end without a turn of the event loop.
/** @type {number[]} */
const cuts = [];

/** Records the positions of the slashes of `path` in `cuts`; returns how many there are. */
function cutsOf(/** @type {string} */ path) {
  cuts.length = 0;
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) cuts.push(i);
  return cuts.length;
}

const segmentStart = (/** @type {number} */ k) => (k === 0 ? 0 : /** @type {number} */ (cuts[k - 1]) + 1);
const segmentEnd = (/** @type {number} */ k, /** @type {string} */ path) => (k < cuts.length ? /** @type {number} */ (cuts[k]) : path.length);

/** Whether the path (of `n` segments, cut by cutsOf) has the route's length and its literal segments. */
function fits(/** @type {(string | null)[]} */ shape, /** @type {string} */ path, /** @type {number} */ n) {
  if (shape.length !== n) return false;
  for (let k = 0; k < n; k++) {
    const literal = shape[k];
    if (literal === null || literal === undefined) continue;
    const start = segmentStart(k);
    if (segmentEnd(k, path) - start !== literal.length || !path.startsWith(literal, start)) return false;
  }
  return true;
}

/** The parameters as the segments give them; undefined for an empty one, which Next's pattern judges. */
function paramsOf(/** @type {[number, string][]} */ slots, /** @type {string} */ path) {
  /** @type {Record<string, string>} */
  const params = {};
  for (const [k, name] of slots) {
    const start = segmentStart(k);
    const end = segmentEnd(k, path);
    if (end === start) return undefined;
    params[name] = path.slice(start, end);
  }
  return params;
}
