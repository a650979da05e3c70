import { describe, expect, inject, it } from "vitest";
import { createUserWithPassword, unique, usersToken } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { fixtureClient } from "../support/fixtures.ts";
import { api, request, tokenRequest } from "../support/http.ts";
import { webTokens, webAuthorization } from "../support/oidc.ts";

// The scrape token test/api/global-setup.ts gives the server (IDP_METRICS_TOKEN).
const SCRAPE_TOKEN = "metrics-scrape-token-for-tests";

type TSample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus text format 0.0.4: `name{a="x",b="y"} value`, `# HELP`/`# TYPE` comments. */
function parseMetrics(text: string): { samples: TSample[]; types: Map<string, string> } {
  const samples: TSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { samples, types };
}

async function scrape() {
  const r = await request("/metrics", { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(r.headers.get("cache-control")).toBe("no-store");
  return { text: r.text, ...parseMetrics(r.text) };
}

/** The value of one series (0 when it does not exist yet). */
function valueOf(samples: TSample[], name: string, labels: Record<string, string>): number {
  const s = samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
  return s?.value ?? 0;
}

async function signInAttempt(identifier: string, password: string) {
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  return browser.submit(await browser.open(webAuthorization().url), { identifier, password });
}

describe("GET {ctx}/metrics", () => {
  it("refuses a scrape without the token or with a wrong one, in the v3 error shape", async () => {
    const missing = await request("/metrics");
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing_access_token" });
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    for (const authorization of [`Bearer ${SCRAPE_TOKEN}x`, `Bearer ${SCRAPE_TOKEN.slice(1)}`, `Basic ${Buffer.from(`x:${SCRAPE_TOKEN}`).toString("base64")}`]) {
      const wrong = await request("/metrics", { headers: { authorization } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.type).toBe("security_error");
      expect(wrong.text).not.toContain("idp_http_requests_total");
    }
    expect((await request("/metrics", { method: "POST", headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } })).status).toBe(405);
  });

  it("counts requests per catalog operation and status, with the path template and never the raw path", async () => {
    const { sub } = await createUserWithPassword();
    const missingSub = unique("no-such-");
    const token = await usersToken();
    const before = (await scrape()).samples;
    expect((await api("GET", `/api/v3/users/${sub}`, { token })).status).toBe(200);
    expect((await api("GET", `/api/v3/users/${missingSub}`, { token })).status).toBe(404);
    expect((await api("GET", `/api/v3/users/${sub}`)).status).toBe(401);
    const after = await scrape();
    const op = "GET /api/v3/users/{subjectId}";
    for (const status of ["200", "404", "401"]) {
      expect(valueOf(after.samples, "idp_http_requests_total", { operation: op, status }) - valueOf(before, "idp_http_requests_total", { operation: op, status })).toBeGreaterThanOrEqual(1);
    }
    expect(after.types.get("idp_http_request_duration_seconds")).toBe("histogram");
    expect(valueOf(after.samples, "idp_http_request_duration_seconds_count", { operation: op, status_class: "4xx" })).toBeGreaterThanOrEqual(2);
    // Every operation label is a catalog operation or "other"; no subject, raw path or token anywhere.
    const operations = new Set(after.samples.flatMap((s) => (s.labels.operation ? [s.labels.operation] : [])));
    for (const o of operations) expect(o).toMatch(/^(other|(GET|POST|PUT|PATCH|DELETE) \/[\w./{}-]*)$/);
    for (const secret of [sub, missingSub, token, SCRAPE_TOKEN, fixtureClient("users-app").secret]) expect(after.text).not.toContain(secret);
  });

  it("counts issued tokens by grant type and sign-ins by method and failure reason", async () => {
    const account = await createUserWithPassword();
    const before = (await scrape()).samples;
    const cc = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["users-app", fixtureClient("users-app").secret] });
    expect(cc.status).toBe(200);
    const refused = await tokenRequest({ grant_type: "client_credentials", scope: "no_such_scope" }, { basic: ["users-app", fixtureClient("users-app").secret] });
    expect(refused.status).toBe(400);
    expect((await signInAttempt(account.sub, "wrong password")).status).toBe(400);
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), {}, { identifier: account.sub, password: account.password });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after.samples, name, labels) - valueOf(before, name, labels);
    expect(delta("idp_oauth_tokens_issued_total", { grant_type: "client_credentials" })).toBeGreaterThanOrEqual(1);
    expect(delta("idp_oauth_tokens_issued_total", { grant_type: "authorization_code" })).toBeGreaterThanOrEqual(1);
    expect(delta("idp_http_requests_total", { operation: "POST /oauth/te", status: "400" })).toBeGreaterThanOrEqual(1);
    expect(delta("idp_sign_in_failures_total", { method: "pwd", reason: "bad_password" })).toBeGreaterThanOrEqual(1);
    expect(delta("idp_sign_ins_total", { method: "pwd" })).toBeGreaterThanOrEqual(1);
    for (const secret of [account.sub, account.password, tokens.access_token, tokens.refresh_token, cc.body.access_token]) expect(after.text).not.toContain(secret);
    for (const s of after.samples.filter((x) => x.name.startsWith("idp_sign_in"))) {
      for (const v of Object.values(s.labels)) expect(v).toMatch(/^[a-z][a-z0-9_+]*$/);
    }
  });

  it("reports the outbox backlog, the database, the password-hash queue and the process", async () => {
    const { samples, types } = await scrape();
    expect(types.get("idp_outbox_pending_messages")).toBe("gauge");
    expect(samples.find((s) => s.name === "idp_outbox_oldest_pending_age_seconds")?.value).toBeGreaterThanOrEqual(0);
    for (const s of samples.filter((x) => x.name === "idp_outbox_pending_messages")) expect(s.labels.channel).toMatch(/^(email|sms)$/);
    const kind = inject("dbKind");
    expect(valueOf(samples, "idp_db_info", { kind })).toBe(1);
    expect(valueOf(samples, "idp_server_processes", {})).toBeGreaterThanOrEqual(1);
    const pool = samples.filter((s) => s.name.startsWith("idp_db_pool_"));
    if (kind === "postgres") {
      // 10 per process: with several workers (IDP_WORKERS) the scrape sums them.
      expect(valueOf(samples, "idp_db_pool_max_connections", {})).toBe(10 * valueOf(samples, "idp_server_processes", {}));
      expect(pool.map((s) => s.labels.state ?? s.name)).toEqual(expect.arrayContaining(["busy", "idle", "idp_db_pool_waiting_requests"]));
    } else {
      expect(pool).toEqual([]);
    }
    expect(samples.filter((s) => s.name === "idp_password_hashes").map((s) => s.labels.state).sort()).toEqual(["running", "waiting"]);
    expect(valueOf(samples, "process_resident_memory_bytes", {})).toBeGreaterThan(10_000_000);
    expect(samples.some((s) => s.name === "nodejs_heap_size_used_bytes")).toBe(true);
    expect(samples.some((s) => s.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });
});
