import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// House rules checked on the imports themselves:
// - no import cycles, on what runs: value imports between the server's files (type-only imports
//   vanish when compiled and are left out). A cycle makes load order matter: a module can see
//   another's exports as undefined while both are still loading.
// - the server stands below the UI: nothing under server/ imports from components/ or app/.
// - the error registry (server/errors/) is a leaf: every layer renders its errors, so it imports none.
// - the request layer (server/http/) is a library below the capabilities: it imports platform
//   folders only, save the caller's authentication (authenticate.ts: tokens and clients), which the
//   test names so that no other file joins it unnoticed.
// - the UI (components/, the console's and portal's pages) reaches the server through the files meant
//   for it (schemas, types, the tRPC router's type), never a service, repository or route file.
// - a capability reaches another's data through that one's services, never its repository.
// - the composition root (server/api/: catalog, OpenAPI document, docs page) is imported by nobody
//   in server/ but itself: it is the one module that knows every capability.

const SERVER = path.resolve("server");
/** The platform folders: what every capability may stand on. */
const PLATFORM = ["boot", "cache", "cli", "cluster", "config", "crypto", "db", "errors", "health", "html", "http", "log", "maintenance", "metrics", "serve", "trpc"];
/** The capability folders (docs/architecture.md, Layout): a new folder of server/ must be one kind or the other. */
const CAPABILITIES = ["account-state", "attributes", "audit", "auth", "auth-modes", "backup-codes", "branding", "caller", "clients", "consents", "contacts", "dashboard", "directories", "dyn-clients", "federation", "groups", "import", "key-rotation", "messaging", "notices", "oauth", "otp", "passkeys", "passwords", "portal", "props", "qr-sign-in", "recovery", "registration", "rights", "rql", "saml", "security-question", "sessions", "sign-in", "users"];
/** The request layer's one file that reaches into capabilities: who is calling (tokens, clients, the audit of a failed Basic login). */
const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gms;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "generated") sourceFiles(full, out);
    } else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.ts$|\.d\.mts$/.test(e.name)) out.push(full);
  }
  return out;
}

/** The repository file a relative or `@/` specifier names; null for a package. */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? path.resolve(specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")].find((p) => existsSync(p) && !p.endsWith(path.sep)) ?? base;
}

/** Every file of the repository a server file imports, type-only imports included. */
function allImports(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map(([, , , specifier]) => resolve(file, specifier!)).filter((t): t is string => t !== null);
}

function valueImports(file: string): string[] {
  const out: string[] = [];
  for (const [, typeOnly, clause, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
    if (typeOnly) continue;
    const named = /^\{([\s\S]*)\}$/.exec(clause!.trim())?.[1];
    if (named !== undefined && named.split(",").map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith("type "))) continue;
    const target = resolve(file, specifier!);
    if (target?.startsWith(SERVER)) out.push(target);
  }
  return out;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(process.cwd(), w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the server's modules", () => {
  it("import each other without cycles", () => {
    const graph = new Map(sourceFiles(SERVER).map((f) => [f, valueImports(f)]));
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph)).toEqual([]);
  });

  it("import nothing from the UI (components/, app/)", () => {
    const ui = [path.resolve("components"), path.resolve("app")];
    const upward = sourceFiles(SERVER).flatMap((f) => allImports(f).filter((t) => ui.some((d) => t.startsWith(d + path.sep))).map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`));
    expect(upward).toEqual([]);
  });

  it("keep the error registry a leaf: server/errors/ imports only its own files", () => {
    const errors = path.join(SERVER, "errors");
    const outside = sourceFiles(errors).flatMap((f) => allImports(f).filter((t) => !t.startsWith(errors + path.sep)).map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`));
    expect(outside).toEqual([]);
  });

  it("keep the request layer and the page kit below the capabilities: server/http/ and server/html/ import platform folders only", () => {
    const allowed = PLATFORM.map((d) => path.join(SERVER, d) + path.sep);
    const upward = ["http", "html"]
      .flatMap((d) => sourceFiles(path.join(SERVER, d)))
      .flatMap((f) => allImports(f).filter((t) => t.startsWith(SERVER + path.sep) && !allowed.some((d) => t.startsWith(d))).map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`));
    expect(upward).toEqual([]);
  });

  it("import the composition root (server/api/) from nowhere in server/ but itself", () => {
    const api = path.join(SERVER, "api") + path.sep;
    const into = sourceFiles(SERVER)
      .filter((f) => !f.startsWith(api))
      .flatMap((f) => allImports(f).filter((t) => t.startsWith(api)).map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`));
    expect(into).toEqual([]);
  });

  it("are reached from the UI only through files meant for it: no service, repository or route file", () => {
    // Route files under app/ are adapters of operations, not UI: they re-export route handlers.
    const ui = [path.resolve("components"), path.resolve("app/console"), path.resolve("app/account")].flatMap((d) => sourceFiles(d)).filter((f) => path.basename(f) !== "route.ts");
    const reached = ui.flatMap((f) =>
      allImports(f)
        .filter((t) => t.startsWith(SERVER + path.sep) && /\.(service|repository|routes)\.ts$/.test(t))
        .map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`),
    );
    expect(ui.length).toBeGreaterThan(50);
    expect(reached).toEqual([]);
  });

  it("reach another capability's data through its services, never its repository", () => {
    const capability = (f: string) => path.relative(SERVER, f).split(path.sep)[0];
    const crossing = sourceFiles(SERVER).flatMap((f) =>
      valueImports(f)
        .filter((t) => t.endsWith(".repository.ts") && capability(t) !== capability(f))
        .map((t) => `${path.relative(process.cwd(), f)} -> ${path.relative(process.cwd(), t)}`),
    );
    expect(crossing).toEqual([]);
  });

  it("keep route files apart: one takes from another only route handlers to list, and nothing else takes from them", () => {
    const HANDLER = /(Route|Routes|ROUTES)$/;
    const api = path.join(SERVER, "api") + path.sep;
    const taken = sourceFiles(SERVER).flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(IMPORT)].flatMap(([, typeOnly, clause, specifier]) => {
        const target = resolve(f, specifier!);
        if (typeOnly || !target?.endsWith(".routes.ts") || f.startsWith(api)) return [];
        const names = (/^\{([\s\S]*)\}$/.exec(clause!.trim())?.[1] ?? clause!).split(",").map((s) => s.trim()).filter((s) => s && !s.startsWith("type "));
        const odd = f.endsWith(".routes.ts") ? names.filter((n) => !HANDLER.test(n)) : names;
        return odd.map((n) => `${path.relative(process.cwd(), f)} takes ${n} from ${path.relative(process.cwd(), target)}`);
      }),
    );
    // What two pages share (the sign-in form, where a flow goes after a method) is a module of its
    // own (login-form.ts, flow-completion.ts), so a page's file reads as that page alone.
    expect(taken).toEqual([]);
  });

  it("sit in folders that are either platform or capability, with the console's and portal's faces where the rule puts them", () => {
    const folders = readdirSync(SERVER, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((d) => d !== "api" && !PLATFORM.includes(d) && !CAPABILITIES.includes(d))).toEqual([]);
    expect(PLATFORM.filter((d) => CAPABILITIES.includes(d))).toEqual([]);
    const files = sourceFiles(SERVER).map((f) => path.relative(SERVER, f));
    // A console face sits beside its capability; the portal's services in portal/ (auth/ signs both in, trpc/ routes both).
    expect(files.filter((f) => /console/.test(path.basename(f)) && !CAPABILITIES.includes(f.split(path.sep)[0]!))).toEqual([]);
    expect(files.filter((f) => /portal/.test(path.basename(f)) && !["portal", "auth", "trpc"].includes(f.split(path.sep)[0]!))).toEqual([]);
  });

  it("would see a cycle: the check itself finds one", () => {
    const a = path.join(SERVER, "a.ts");
    const b = path.join(SERVER, "b.ts");
    expect(cycles(new Map([[a, [b]], [b, [a]]]))).toEqual([["server/a.ts", "server/b.ts"]]);
  });
});
