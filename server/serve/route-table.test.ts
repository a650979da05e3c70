import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeTable } from "./route-table.mjs";

// The lookup must pick the route Next picks, with the parameters Next's matcher gives, for any path:
// here against the plain walk over every route in Next's order with Next's pattern (what the fast
// path did before the shortcuts), over this app's own routes and values that decoding, Next's
// separator and empty segments change.
const require = createRequire(import.meta.url);
const { getSortedRoutes } = require("next/dist/shared/lib/router/utils/sorted-routes.js");
const { getNamedRouteRegex } = require("next/dist/shared/lib/router/utils/route-regex.js");
const { getRouteMatcher } = require("next/dist/shared/lib/router/utils/route-matcher.js");
const { isDynamicRoute } = require("next/dist/shared/lib/router/utils/is-dynamic.js");
const { normalizeAppPath } = require("next/dist/shared/lib/router/utils/app-paths.js");

type TParams = Record<string, string | string[]>;

function appPages(dir = path.resolve("app"), rel = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.isDirectory()) return appPages(path.join(dir, d.name), `${rel}/${d.name}`);
    return /^(route|page)\.tsx?$/.test(d.name) ? [normalizeAppPath(`${rel}/${d.name.replace(/\.tsx?$/, "")}`)] : [];
  });
}

function reference(pages: string[]) {
  const statics = new Set(pages.filter((p) => !isDynamicRoute(p)));
  const dynamic = getSortedRoutes(pages.filter((p) => isDynamicRoute(p))).map((page: string) => ({
    page,
    match: getRouteMatcher(getNamedRouteRegex(page, { prefixRouteKeys: true, includePrefix: true, includeSuffix: true })) as (p: string) => TParams | false,
  }));
  return (rawPath: string): { page: string; params: TParams } | undefined => {
    if (statics.has(rawPath)) return { page: rawPath, params: {} };
    for (const d of dynamic) {
      let params: TParams | false;
      try {
        params = d.match(rawPath);
      } catch (e) {
        return { page: `throws ${(e as Error).name}`, params: {} };
      }
      if (params) return { page: d.page, params };
    }
    return undefined;
  };
}

const VALUES = ["abc", "0d3c9e1a-7b1f-4c55-9e3a-2f6f1f0b9a11", "a%20b", "%E2%82%AC", "%zz", "_NEXTSEP_x", "x_NEXTSEP_", "a:b@c", "current", "its", "grps", "on", "of", ""];

function samplePaths(pages: string[]): string[] {
  const out = new Set<string>(["/", "/api", "/api/v3", "/nothing/here", "/api/v3/users/a/b/c/d/e/f/g/h"]);
  for (const page of pages) {
    out.add(page);
    for (const v of VALUES) {
      const filled = page.replace(/\[\[?(\.\.\.)?[^\]]+\]\]?/g, v);
      out.add(filled);
      out.add(`${filled}/extra`);
      out.add(filled.split("/").slice(0, -1).join("/") || "/");
    }
    const parts = page.split("/");
    // Each parameter a different value: the right value must go to the right name.
    let n = 0;
    out.add(parts.map((seg) => (seg.includes("[") ? `${seg.startsWith("x-") ? "x-" : ""}v${n++}` : seg)).join("/"));
  }
  return [...out];
}

describe("routeTable: the fast path's route lookup", () => {
  const pages = appPages();
  const table = routeTable(pages.map((page) => ({ page })));
  const expected = reference(pages);

  it("covers this app's routes, dynamic ones among them", () => {
    expect(pages.filter((p) => isDynamicRoute(p)).length).toBeGreaterThan(50);
    expect(pages).toContain("/api/v3/users/[subjectId]/auth");
  });

  it("picks the route and the parameters Next's own matching gives, for every sample path", () => {
    const paths = samplePaths(pages);
    expect(paths.length).toBeGreaterThan(1000);
    let mismatches = 0;
    for (const p of paths) {
      let got: { page: string; params: TParams } | undefined;
      try {
        const r = table.resolve(p);
        got = r && { page: r.entry.page, params: r.params };
      } catch (e) {
        got = { page: `throws ${(e as Error).name}`, params: {} };
      }
      const want = expected(p);
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches++;
      expect(got, p).toEqual(want);
    }
    expect(mismatches).toBe(0);
  });

  it("gives a path's segments as its parameters, and decodes them only when escaped", () => {
    expect(table.resolve("/api/v3/users/u-1/auth")).toEqual({ entry: { page: "/api/v3/users/[subjectId]/auth" }, params: { subjectId: "u-1" } });
    expect(table.resolve("/api/v3/users/a%2Fb/auth")?.params).toEqual({ subjectId: "a/b" });
    expect(table.resolve("/api/v3/users/_NEXTSEP_u/auth")?.params).toEqual({ subjectId: "u" });
    expect(table.isStatic("/health/live")).toBe(true);
    expect(table.isStatic("/api/v3/users/[subjectId]/auth")).toBe(false);
  });
});
