import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { serverEntry } from "../../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { ROUTES } from "../../server/api/catalog.ts";
import { PAGES } from "../../server/api/pages.ts";
import type { TOperation, TRouteHandler } from "../../server/http/define-route.ts";
import { docsBundleRoute, docsRoute } from "../../server/api/docs.routes.ts";
import { openApiRoute } from "../../server/api/openapi.routes.ts";
import { fixture, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";

// The production server answers the catalog's operations on its fast path (server/serve/) and hands
// everything else to Next. This test starts two servers of its own — the fast path on, and
// IDP_FAST_PATH=0 — each on its own copy of the same start state (the import fixture, one secret
// key), sends both the same requests in the same order, and compares what a client sees. The
// requests are generated from the catalog, so an operation added later is covered without an edit.

type TServer = Awaited<ReturnType<typeof startServer>>;
/** `chunked`: the body goes as a stream without Content-Length, so the server learns its size by reading it. */
type TSample = { method: string; path: string; headers?: Record<string, string>; body?: string; auth?: "valid"; chunked?: true };
type TSeen = { status: number; headers: Record<string, string>; body: string };

const postgres = inject("dbKind") === "postgres";
const SECRET_KEY = "equivalence-secret-key-0123456789abcdef";
/** The documentation's own operations: documented with the catalog (operations(extra)), not in ROUTES. */
const DOC_ROUTES: TRouteHandler[] = [openApiRoute, docsRoute, docsBundleRoute];
const CATALOG = [...ROUTES, ...DOC_ROUTES].map((r) => r.operation);
const key = (op: Pick<TOperation, "method" | "path">) => `${op.method} ${op.path}`;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

// Differ by nature between two servers: not compared. Set-Cookie is compared by cookie names.
const VOLATILE = new Set(["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "etag", "set-cookie"]);
// Values that are random or time-dependent on each server (its own database: ids, instance ids, OTP
// seeds, event times); only their place in the body must match.
const MASKS: [RegExp, string][] = [
  [/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, "<jwt>"],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>"],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>"],
  [/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>"],
  // A lockout's remaining seconds: the two servers' windows started a few hundred ms apart.
  [/try again in \d+ s/g, "try again in <n> s"],
  // A page's Content-Security-Policy nonce is new on every answer.
  [/'nonce-[A-Za-z0-9+/=]+'/g, "'nonce-<n>'"],
  // SAML: each server signs with its own key, and every document gets a new ID.
  [/_[0-9a-f]{40}/g, "_<id>"],
  [/<ds:(X509Certificate|DigestValue|SignatureValue)>[^<]*</g, "<ds:$1><v><"],
  [/"(access_token|refresh_token|id_token|jti|iat|exp|nbf|kid|x|y|n|id|time|instanceId|base64QRCode|base32Secret|created|updated|createdAt|updatedAt|expiresAt|expires_at|generated_at|client_secret|client_id_issued_at|registration_access_token|code|secret)":\s*("[^"]*"|\d+)/g, '"$1":"<v>"'],
];
// The SAML pages between the protocol endpoints and the sign-in pages (server/saml/sso/sso.pages.ts): pages, not operations.
const SAML_PAGES = /^\/saml\/(idp-init|sso\/continue|sso\/return|slo\/continue)$/;
const mask = (s: string) => MASKS.reduce((t, [re, by]) => t.replace(re, by), s);

/** A plausible value for a path parameter: a fixture record where one fits the name. */
function paramValue(name: string): string {
  if (/subject|user|sub\b|master/i.test(name)) return "ivanov";
  if (/group/i.test(name)) return "org-fixture";
  if (/right/i.test(name)) return "read_reports";
  if (/client|app/i.test(name)) return "svc-app";
  if (/attr|prop/i.test(name)) return "employee_id";
  return "fixture-value";
}
const fill = (p: string, value: (name: string) => string) => p.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));

/** The fixture client whose credentials fit the operation's auth (any-of its scopes), if any. */
function clientFor(op: TOperation): (typeof fixture.clients)[number] | undefined {
  const a = op.auth;
  if (a.kind === "none") return undefined;
  const wanted = a.kind === "bearer" ? (a.system ?? []) : (a.scopes ?? []);
  // A bearer operation for users only takes no client_credentials token: its samples go without one.
  if (a.kind === "bearer" && wanted.length === 0) return undefined;
  const ok = (c: (typeof fixture.clients)[number]) => wanted.length === 0 || wanted.some((s) => c.scopes.includes(s));
  return fixture.clients.find((c) => c.secret && (a.kind === "bearer" || c.restPassword) && ok(c));
}

/** The requests sent for one operation: no auth, bad auth, happy path where the fixture allows, bad params/query/body, a wrong method. */
function samplesOf(op: TOperation): TSample[] {
  const p = fill(op.path, paramValue);
  const out: TSample[] = [];
  const json = { "content-type": "application/json" };
  const withBody = op.method !== "GET" && op.method !== "DELETE";
  if (op.auth.kind !== "none") {
    out.push({ method: op.method, path: p });
    out.push({ method: op.method, path: p, headers: { authorization: op.auth.kind === "bearer" ? "Bearer not.a.token" : "Basic bm9ib2R5Om5vdGhpbmc=" } });
  }
  const authed = op.auth.kind === "none" ? {} : { auth: "valid" as const };
  out.push({ method: op.method, path: p, ...authed, ...(withBody ? { headers: json, body: "{}" } : {}) });
  if (/\{/.test(op.path)) out.push({ method: op.method, path: fill(op.path, () => "no-such-thing-0"), ...authed, ...(withBody ? { headers: json, body: "{}" } : {}) });
  out.push({ method: op.method, path: `${p}?zz_unknown=1`, ...authed });
  if (withBody) out.push({ method: op.method, path: p, ...authed, headers: json, body: "{not json" });
  const served = new Set(CATALOG.filter((o) => o.path === op.path).map((o) => o.method));
  const wrong = METHODS.find((m) => !served.has(m));
  if (wrong) out.push({ method: wrong, path: p, ...authed });
  return out;
}

// Paths and methods Next treats specially; the fast path must leave each to Next (fast-path.mjs).
const ODD: TSample[] = [
  { method: "HEAD", path: "/health/live" },
  { method: "OPTIONS", path: "/health/live" },
  { method: "GET", path: "/health/live/" },
  { method: "GET", path: "/health/l%69ve" },
  { method: "GET", path: "/health//live" },
  { method: "GET", path: "/health/./live" },
  { method: "GET", path: "/api/v3/users/x%zz/state", auth: "valid" },
  { method: "GET", path: "/api/v3/users/x%2Fy/state", auth: "valid" },
  { method: "GET", path: "/api/v3/users/%E2%82%AC/state", auth: "valid" },
  { method: "GET", path: "/api/v3/users/ivanov/state.rsc", auth: "valid" },
  { method: "GET", path: "/api/v3/users/ivanov/state", auth: "valid", headers: { rsc: "1" } },
  { method: "GET", path: "/api/v3/no/such/route", auth: "valid" },
  { method: "POST", path: "/oauth/te", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "x=" + "a".repeat(70_000) },
  // Past parse.ts's limit while reading: 413, and the connection must not be reset under the next requests.
  { method: "POST", path: "/api/v3/users/ivanov/props", auth: "valid", headers: { "content-type": "application/json" }, body: `{"p":"${"a".repeat(200_000)}"}`, chunked: true },
  { method: "GET", path: "/.well-known/openid-configuration" },
  { method: "GET", path: "/console/events/export" },
  // The sign-in pages, served like the operations: their error pages, in the visitor's language.
  { method: "GET", path: "/login?flow=AAAAAAAAAAAAAAAAAAAAAAAA", headers: { "accept-language": "ru" } },
  { method: "GET", path: "/login?flow=x" },
  { method: "POST", path: "/login?flow=AAAAAAAAAAAAAAAAAAAAAAAA", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "identifier=a&password=b" },
  { method: "GET", path: "/login/otp?flow=AAAAAAAAAAAAAAAAAAAAAAAA" },
  { method: "GET", path: "/register?flow=AAAAAAAAAAAAAAAAAAAAAAAA" },
  { method: "POST", path: "/register/code?signup=x", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "code=1" },
  { method: "GET", path: "/consent?flow=AAAAAAAAAAAAAAAAAAAAAAAA" },
  { method: "GET", path: "/login/qr/status?flow=AAAAAAAAAAAAAAAAAAAAAAAA" },
  { method: "GET", path: "/login" },
];

/** The fast server's operations, from its debug line at start. */
function fastOperations(server: TServer): string[] {
  const line = server.output().split("\n").find((l) => l.includes('"fast path operations"'));
  return line ? (JSON.parse(line) as { operations: string[] }).operations : [];
}

async function tokenFrom(server: TServer, op: TOperation, client: (typeof fixture.clients)[number]): Promise<string> {
  const scope = op.auth.kind === "bearer" ? (op.auth.system ?? []).filter((s) => client.scopes.includes(s)).join(" ") : "";
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { authorization: oauthBasic(client.id, client.secret), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) }).toString(),
  });
  if (res.status !== 200) throw new Error(`no token for ${client.id} (${scope}): ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * A request whose body goes in 16 KiB chunks without Content-Length, on a connection of its own:
 * after refusing such a body Next resets the connection under the client's next request, which
 * would fail the samples after it (the fast path keeps it: see the last test).
 */
function chunked(url: string, method: string, headers: Record<string, string>, body: string, agent: Agent | false = false): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) for (const x of [v].flat()) h.append(k, x);
        resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(parts), { status: res.statusCode, headers: h }));
      });
    });
    req.on("error", reject);
    for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
    req.end();
  });
}

async function send(server: TServer, s: TSample, authorization: string | undefined, requestId: string): Promise<TSeen> {
  const headers: Record<string, string> = { "x-request-id": requestId, ...s.headers };
  if (authorization) headers.authorization = authorization;
  const res = await (s.chunked ? chunked(`${server.baseUrl}${s.path}`, s.method, headers, s.body ?? "") : fetch(`${server.baseUrl}${s.path}`, { method: s.method, headers, body: s.body, redirect: "manual" })).catch(
    (e: Error) => e,
  );
  // A connection reset is an answer too, and must be the same on both paths.
  if (res instanceof Error) return { status: 0, headers: {}, body: String((res.cause as Error | undefined)?.message ?? res.message) };
  const text = mask(await res.text());
  const seen = Object.fromEntries([...res.headers].filter(([k]) => !VOLATILE.has(k)).map(([k, v]) => [k, k === "retry-after" ? "<s>" : mask(v)]));
  const cookies = res.headers.getSetCookie().map((c) => c.split("=")[0]);
  if (cookies.length) seen["set-cookie"] = cookies.join(", ");
  return { status: res.status, headers: seen, body: text };
}

/** The request log lines by request id, without what differs by nature (time, duration). */
function logLines(server: TServer, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of server.output().split("\n")) {
    if (!l.includes(`"${prefix}`)) continue;
    const { time: _t, ms: _ms, ...rest } = JSON.parse(l) as Record<string, unknown>;
    out.set(String(rest.requestId), mask(JSON.stringify(rest)));
  }
  return out;
}

let fast: TServer;
let slow: TServer;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // Each server gets its own database in the same start state; both run at once.
  async function databaseEnv(): Promise<Record<string, string>> {
    const dataDir = mkdtempSync(path.join(tmpdir(), "idp-equiv-"));
    const env: Record<string, string> = { IDP_DATA_DIR: dataDir, IDP_IMPORT: IMPORT_FIXTURE, IDP_ADMIN_PASSWORD: "equivalence-admin-password", IDP_LOG_LEVEL: "debug", IDP_SECRET_KEY: SECRET_KEY };
    if (postgres) {
      const db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
      cleanup.push(db.drop);
      env.DATABASE_URL = db.url;
    }
    return env;
  }
  const [a, b] = await Promise.all([databaseEnv(), databaseEnv()]);
  [fast, slow] = await Promise.all([startServer({ entry: [serverEntry], env: a }), startServer({ entry: [serverEntry], env: { ...b, IDP_FAST_PATH: "0" } })]);
  cleanup.unshift(slow.stop, fast.stop);
}, 180_000);

afterAll(async () => {
  for (const c of cleanup) await c();
});

describe("fast path equivalence", () => {
  it("serves exactly the catalog's operations, minus those that need Next's request scope, and the sign-in pages", () => {
    const expected = [...CATALOG.filter((op) => !op.nextRequestScope).map(key), ...PAGES.map((p) => key(p.page))].sort();
    expect(fastOperations(fast).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(50);
    // The escape hatch: with IDP_FAST_PATH=0 everything goes to Next.
    expect(fastOperations(slow)).toEqual([]);
    expect(slow.output()).toContain('"fastPath":"off"');
  });

  it("has every method of every API route file in the catalog", () => {
    // Route trees that are not operations: framework plumbing, JSON 404 catch-alls, sign-in pages and their logo.
    const notOperations = [/^\/api\/trpc\//, /^\/api\/auth\//, /\/\[\.\.\.path\]$/, /^\/(login|consent|register|branding)(\/|$)/, SAML_PAGES];
    const files = (function walk(dir: string, prefix: string): { path: string; file: string }[] {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name), `${prefix}/${e.name}`) : e.name === "route.ts" ? [{ path: prefix, file: path.join(dir, e.name) }] : [],
      );
    })(path.join(process.cwd(), "app"), "").filter((r) => !notOperations.some((re) => re.test(r.path)));
    const template = (p: string) =>
      p
        .split("/")
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => (/^\[.+\]$/.test(s) || /^\{.+\}$/.test(s) ? "{}" : s))
        .join("/");
    const catalog = new Set(CATALOG.map((op) => `${op.method} ${template(op.path)}`));
    const missing = files.flatMap((r) =>
      [...readFileSync(r.file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${template(r.path)}`).filter((k) => !catalog.has(k)),
    );
    expect(files.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it("answers every operation's sample and the odd paths identically on both paths (status, headers, body, log line)", async () => {
    const tokens = new Map<string, string>();
    const diffs: string[] = [];
    let n = 0;
    const work: [TOperation | undefined, TSample][] = [...CATALOG.flatMap((op) => samplesOf(op).map((s) => [op, s] as [TOperation, TSample])), ...ODD.map((s) => [undefined, s] as [undefined, TSample])];
    // An odd path's token: the operation's whose path template matches it, else the state read's.
    const stateOp = CATALOG.find((op) => op.method === "GET" && op.path === "/api/v3/users/{subjectId}/state")!;
    const opOf = (s: TSample) => CATALOG.find((op) => op.method === s.method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(s.path)) ?? stateOp;
    for (const [op0, s] of work) {
      const op = op0 ?? opOf(s);
      const requestId = `equiv-${String(++n).padStart(4, "0")}-0000`;
      const seen: TSeen[] = [];
      for (const server of [fast, slow]) {
        let authorization: string | undefined;
        const client = s.auth ? clientFor(op) : undefined;
        if (client && op.auth.kind === "bearer") {
          const k = `${server.port} ${client.id} ${key(op)}`;
          if (!tokens.has(k)) tokens.set(k, await tokenFrom(server, op, client));
          authorization = `Bearer ${tokens.get(k)}`;
        } else if (client?.restPassword) {
          authorization = "Basic " + Buffer.from(`${client.id}:${client.restPassword}`).toString("base64");
        }
        seen.push(await send(server, s, authorization, requestId));
      }
      const [a, b] = seen.map((x) => JSON.stringify(x));
      if (a !== b) diffs.push(`${s.method} ${s.path} (${requestId})\n  fast: ${a!.slice(0, 600)}\n  next: ${b!.slice(0, 600)}`);
    }
    expect(n).toBeGreaterThan(CATALOG.length * 3);
    // The servers' log lines reach this process on another pipe than the answers, so they may trail
    // them: wait (5 s at most) until both logs name the same requests; what still differs is reported.
    const sameIds = () => {
      const [f, g] = [logLines(fast, "equiv-"), logLines(slow, "equiv-")];
      return f.size === g.size && [...f.keys()].every((id) => g.has(id));
    };
    for (const end = Date.now() + 5_000; !sameIds() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 200));
    const lf = logLines(fast, "equiv-");
    const ln = logLines(slow, "equiv-");
    for (const id of new Set([...lf.keys(), ...ln.keys()])) if (lf.get(id) !== ln.get(id)) diffs.push(`log ${id}\n  fast: ${lf.get(id)}\n  next: ${ln.get(id)}`);
    expect(lf.size).toBeGreaterThan(CATALOG.length * 2);
    expect(diffs).toEqual([]);
    // One database per process, whichever path served a request.
    for (const server of [fast, slow]) expect(server.output().split("\n").filter((l) => l.includes('"database opened"'))).toHaveLength(1);
  }, 300_000);

  it("reads a small body sent in pieces whole before the handler runs, and forgets a client that leaves mid-body", async () => {
    const svc = fixture.clients.find((c) => c.id === "svc-app")!;
    const body = "grant_type=client_credentials&scope=idp_api_sys_users";
    const head = (server: TServer, length: number) =>
      `POST ${new URL(server.baseUrl).pathname}/oauth/te HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${oauthBasic(svc.id, svc.secret!)}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
    /** Sends the head and the body in two pieces 150 ms apart (or only the first, then hangs up). */
    const send = (server: TServer, whole: boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, "127.0.0.1");
        let answer = "";
        socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
        socket.on("end", () => resolve(answer));
        socket.on("error", reject);
        socket.write(head(server, body.length) + body.slice(0, 20));
        setTimeout(() => (whole ? socket.write(body.slice(20)) : socket.destroy(), !whole && resolve("")), 150);
      });
    for (const server of [fast, slow]) {
      const answer = await send(server, true);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      // The answer is chunked: its JSON is looked for, not parsed.
      expect(answer).toContain('"scope":"idp_api_sys_users","token_type":"Bearer"');
    }
    const before = fast.output().length;
    expect(await send(fast, false)).toBe("");
    const live = await fetch(`${fast.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    // Nobody is left to answer: no handler ran, so no error and no request line for it.
    const after = fast.output().slice(before);
    expect(after).not.toContain('"level":"error"');
    expect(after).not.toContain('"path":"/oauth/te"');
  });

  it("keeps the connection after refusing a streamed body past the limit (the fast path drains it)", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const refused = await chunked(`${fast.baseUrl}/oauth/te`, "POST", form, "x=" + "a".repeat(300_000), agent);
      expect(refused.status).toBe(413);
      expect((await refused.json()).error).toBe("invalid_request");
      const next = await new Promise<{ status?: number; reused: boolean }>((resolve, reject) => {
        const req = httpRequest(`${fast.baseUrl}/health/live`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(next).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
