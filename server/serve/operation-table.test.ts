import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { operationTable } from "./operation-table.mjs";
import { PAGES } from "../api/pages.ts";
import { publishedOperations } from "../api/publish.ts";

// The node:http transport routes by the catalog's path templates; Next routes by the app/ folder
// tree. Both must pick the same route for a path, or the transport would take a request that Next's
// route file (or page) should answer, or the other way round.

const APP = path.join(process.cwd(), "app");
const operations = publishedOperations();
const table = operationTable(operations.map((op) => ({ ...op, run: `${op.method} ${op.path}` })));
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Every app/ folder Next serves (a route.ts or page.tsx in it), as a path with `*` for each parameter. */
function appShapes(dir = APP, at = ""): string[] {
  const out: string[] = [];
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((e) => e.isFile() && /^(route\.ts|page\.tsx)$/.test(e.name))) out.push(at || "/");
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith("_")) continue;
    // A route group "(admin)" is no segment of the path; a catch-all matches paths of any length.
    const segment = /^\(.*\)$/.test(e.name) ? "" : /^\[\[?\.\.\./.test(e.name) ? "**" : e.name.startsWith("[") ? "*" : e.name;
    out.push(...appShapes(path.join(dir, e.name), segment ? `${at}/${segment}` : at));
  }
  return out;
}
const shapeOf = (template: string) => template.replace(/\{[^}]+\}/g, "*");
const SHAPES = appShapes();

describe("the node:http transport's operation table", () => {
  it("has a route file of the same shape for every operation it serves", () => {
    const missing = operations.filter((op) => !SHAPES.includes(shapeOf(op.path)));
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(operations.length).toBeGreaterThan(80);
  });

  it("resolves a path of every app/ folder to that folder's operation, or to none where Next alone serves it", () => {
    for (const shape of SHAPES.filter((s) => !s.includes("**"))) {
      const sample = shape.replace(/\*/g, "sample-value");
      for (const method of METHODS) {
        const found = table.resolve(method, sample);
        if (found) expect(shapeOf(found.run.split(" ")[1]!), `${method} ${sample}`).toBe(shape);
      }
    }
  });

  it("takes a literal segment before a parameter, and a parameter where no literal fits", () => {
    expect(table.resolve("GET", "/api/v3/groups/search")?.run).toBe("GET /api/v3/groups/search");
    expect(table.resolve("GET", "/api/v3/groups/acme")?.run).toBe("GET /api/v3/groups/{id}");
    expect(table.resolve("GET", "/api/v3/groups/acme/search")?.run).toBe("GET /api/v3/groups/{profile}/search");
    expect(table.resolve("POST", "/api/v3/groups/acme/g1")).toMatchObject({ run: "POST /api/v3/groups/{profile}/{id}", params: { profile: "acme", id: "g1" } });
    // A method the route has no operation for is Next's: the route file answers 405 with Allow.
    expect(table.resolve("GET", "/api/v3/groups/acme/g1")).toBeUndefined();
  });

  it("gives the parameters decoded, under the document's names, and nothing for what does not decode", () => {
    expect(table.resolve("GET", "/api/v3/users/a%40b%20c")).toEqual({ run: "GET /api/v3/users/{subjectId}", params: { subjectId: "a@b c" } });
    expect(table.resolve("POST", "/api/v3/users/x")?.params).toEqual({ instanceId: "x" });
    expect(table.resolve("GET", "/api/v3/users/x%zz")).toBeUndefined();
    expect(table.resolve("GET", "/api/v3/users/")).toBeUndefined();
    expect(table.resolve("OPTIONS", "/health/live")).toBeUndefined();
  });

  it("refuses a table with a parameter inside a segment or an operation listed twice", () => {
    expect(() => operationTable([{ method: "GET", path: "/a/x-{id}", run: 1 }])).toThrow(/whole segment/);
    expect(() => operationTable([{ method: "GET", path: "/a/{id}", run: 1 }, { method: "GET", path: "/a/{other}", run: 2 }])).toThrow(/twice/);
  });

  it("serves each page with the handler its app/ route file exports, and every page a route file exports", async () => {
    const routeFiles = appShapes()
      .filter((shape) => !shape.includes("*"))
      .map((shape) => ({ shape, file: path.join(APP, shape, "route.ts") }))
      .filter(({ file }) => existsSync(file) && /@\/server\/(sign-in|recovery|branding)\/|@\/server\/saml\/.*\.pages"/.test(readFileSync(file, "utf8")));
    const exported: { method: string; path: string; handler: unknown }[] = [];
    for (const { shape, file } of routeFiles) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of ["GET", "POST"] as const) if (mod[method]) exported.push({ method, path: shape, handler: mod[method] });
    }
    expect(exported.length).toBeGreaterThanOrEqual(PAGES.length);
    expect(new Set(exported.map((e) => e.handler))).toEqual(new Set(PAGES));
    for (const e of exported) expect(PAGES.find((p) => p === e.handler)?.page, `${e.method} ${e.path}`).toEqual({ method: e.method, path: e.path });
    for (const p of PAGES) expect(table.resolve(p.page.method, p.page.path)?.run).toBe(`${p.page.method} ${p.page.path}`);
  });
});
