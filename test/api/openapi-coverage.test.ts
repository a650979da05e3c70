import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { request } from "../support/http.ts";

// Route trees that are not part of the public API: framework plumbing, JSON 404 catch-alls, and the
// sign-in pages with their logo (HTML and an image for people, not operations for programs).
// The SAML pages between the protocol endpoints and the sign-in pages (server/saml/sso/sso.pages.ts) are pages too.
const NOT_OPERATIONS = [/^\/api\/trpc\//, /^\/api\/auth\//, /\/\[\.\.\.path\]$/, /^\/(login|consent|register|branding)(\/|$)/, /^\/saml\/(idp-init|sso\/continue|sso\/return|slo\/continue)$/];

function routeFiles(dir: string, prefix = ""): { path: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full, `${prefix}/${e.name}`);
    return e.name === "route.ts" ? [{ path: prefix, file: full }] : [];
  });
}

/**
 * `/api/v3/users/[subjectId]` → `/api/v3/users/{}`; route groups `(x)` vanish. Parameter names are
 * dropped: one app/ folder serves `/users/{subjectId}` and `/users/{instanceId}`, as the contract names them.
 */
function toOpenApiPath(p: string): string {
  return p
    .split("/")
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => s.replace(/^\[(.+)\]$/, "{}"))
    .join("/");
}

const templateOf = (p: string) => p.replace(/\{[^}]+\}/g, "{}");

/** The document's operations by parameter-free path: "/api/v3/users/{}" → {get, post, delete}. */
function documented(doc: { paths: Record<string, Record<string, unknown>> }): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [p, ops] of Object.entries(doc.paths)) {
    const set = out.get(templateOf(p)) ?? new Set<string>();
    for (const m of Object.keys(ops)) set.add(m);
    out.set(templateOf(p), set);
  }
  return out;
}

describe("OpenAPI document completeness", () => {
  it("documents every method of every REST and OAuth route file", async () => {
    const doc = (await request("/api/openapi.json")).body;
    const files = routeFiles(path.join(process.cwd(), "app")).filter((r) => !NOT_OPERATIONS.some((re) => re.test(r.path)));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const missing: string[] = [];
    for (const r of files) {
      const source = readFileSync(r.file, "utf8");
      const methods = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!);
      expect(methods.length, `${r.file} exports no handler`).toBeGreaterThan(0);
      for (const m of methods) {
        if (!documented(doc).get(toOpenApiPath(r.path))?.has(m.toLowerCase())) missing.push(`${m} ${toOpenApiPath(r.path)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("documents no operation that has no route file", async () => {
    const doc = (await request("/api/openapi.json")).body;
    const files = new Set(routeFiles(path.join(process.cwd(), "app")).map((r) => toOpenApiPath(r.path)));
    expect(Object.keys(doc.paths).filter((p) => !files.has(templateOf(p)))).toEqual([]);
  });
});
