import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { updateClient } from "../../server/clients/clients.service.ts";
import { defineRoute } from "../../server/caller/define-route.ts";
import { importFile } from "../../server/import/import.service.ts";
import { ensureSigningKey, getSigningKey } from "../../server/oauth/keys/signing-keys.service.ts";
import { issueAccessToken } from "../../server/oauth/tokens/access-token.ts";
import { revokeAccessToken } from "../../server/oauth/tokens/revocation.service.ts";
import { getConfig } from "../../server/config/config.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";
import { fixtureClient, IMPORT_FIXTURE } from "../support/fixtures.ts";
import { flushLog } from "../../server/log/logger.ts";

// A real operation definition run through the real request layer against a real database; only the
// HTTP listener is missing (the API tests add it).
const echo = defineRoute(
  {
    method: "POST",
    path: "/test/users/{subjectId}",
    summary: "echo",
    tags: ["test"],
    auth: { kind: "bearer", user: ["idp_api_user"], system: ["idp_api_sys_users"], subjectParam: "subjectId" },
    params: z.object({ subjectId: z.string() }),
    body: z.strictObject({ name: z.string(), fail: z.boolean().optional() }),
    response: { status: 200, description: "echo" },
    errors: [],
  },
  async ({ ctx, params, body }) => {
    if (body.fail) throw new Error("database exploded: password=hunter2");
    return { actor: ctx.actor, ip: ctx.ip ?? null, userAgent: ctx.userAgent ?? null, params, body };
  },
);

const basicRoute = defineRoute(
  {
    method: "GET",
    path: "/test/v1",
    summary: "v1",
    tags: ["test"],
    deprecated: true,
    auth: { kind: "basic" },
    response: { status: 200, description: "ok" },
    errors: [],
  },
  async ({ ctx }) => ({ actor: ctx.actor }),
);

type TCall = { token?: string; subject?: string; body?: unknown; headers?: Record<string, string>; query?: string };

async function call({ token, subject = "ivanov", body = { name: "x" }, headers = {}, query = "" }: TCall) {
  const req = new Request(`http://idp.test/idp/test/users/${subject}${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const res = await echo(req, { params: Promise.resolve({ subjectId: subject }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe.each(DB_KINDS)("defineRoute on %s", (kind) => {
  let t: TTestDatabase;
  let systemToken: string;
  let userToken: string;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureSigningKey();
    await importFile(IMPORT_FIXTURE, {});
    systemToken = (await issueAccessToken({ clientId: "svc-app", sub: "svc-app", subType: "client", scopes: ["idp_api_sys_users"] })).token;
    // User-mode tokens belong to existing accounts (a deleted account's tokens are cut off): a fixture account.
    userToken = (await issueAccessToken({ clientId: "svc-app", sub: "ivanov", subType: "user", scopes: ["idp_api_user"] })).token;
  });
  afterAll(async () => t.close());

  it("asks for a token when none is sent", async () => {
    const r = await call({});
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing_access_token" });
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="idp"');
  });

  it("runs system mode without capturing the user's IP", async () => {
    const r = await call({ token: systemToken, headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(r.status).toBe(200);
    expect(r.body.actor).toMatchObject({ mode: "system", clientId: "svc-app", scopes: ["idp_api_sys_users"] });
    expect(r.body.ip).toBeNull();
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  it("runs user mode on the token's own subject and captures X-Forwarded-For and User-Agent", async () => {
    const r = await call({ token: userToken, headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1", "user-agent": "Mobile/1.0" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ actor: { mode: "user", userId: "ivanov", clientId: "svc-app" }, ip: "203.0.113.9", userAgent: "Mobile/1.0" });
    expect((await call({ token: userToken, subject: "current" })).status).toBe(200);
  });

  it("refuses a user token on another user's subject", async () => {
    const r = await call({ token: userToken, subject: "user-2" });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect(r.body.desc).toMatch(/^wrong_subject/);
  });

  it("answers a missing scope with 401 naming the scopes", async () => {
    const other = await issueAccessToken({ clientId: "svc-app", sub: "svc-app", subType: "client", scopes: ["idp_rights_full_access"] });
    const r = await call({ token: other.token });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing scopes: idp_api_sys_users" });
    expect(r.headers.get("www-authenticate")).toContain('error="insufficient_scope", error_description="missing scopes: idp_api_sys_users", scope="idp_api_sys_users"');
  });

  it("answers an expired token with expired_access_token", async () => {
    const { kid, key } = await getSigningKey();
    const { issuer } = getConfig();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ client_id: "svc-app", scope: "idp_api_sys_users", sub_type: "client" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
      .setIssuer(issuer).setAudience(issuer).setSubject("svc-app").setJti("expired-1")
      .setIssuedAt(now - 7200).setExpirationTime(now - 3600)
      .sign(key);
    const r = await call({ token: expired });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "expired_access_token" });
    expect(r.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refuses a tampered, foreign-issuer, revoked or disabled-client token", async () => {
    const [h, p, s] = systemToken.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...claims, scope: "idp_api_sys_users idp_rights_full_access" })).toString("base64url"), s].join(".");
    expect((await call({ token: forged })).body.desc).toBe("invalid_access_token");
    expect((await call({ token: "not-a-jwt" })).body.desc).toBe("invalid_access_token");

    const { kid, key } = await getSigningKey();
    const foreign = await new SignJWT({ client_id: "svc-app", scope: "idp_api_sys_users", sub_type: "client" })
      .setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid })
      .setIssuer("https://evil.example").setAudience("https://evil.example").setSubject("svc-app").setJti("f-1")
      .setIssuedAt().setExpirationTime("1h").sign(key);
    expect((await call({ token: foreign })).body.desc).toBe("invalid_access_token");

    const doomed = await issueAccessToken({ clientId: "svc-app", sub: "svc-app", subType: "client", scopes: ["idp_api_sys_users"] });
    expect((await call({ token: doomed.token })).status).toBe(200);
    expect(await revokeAccessToken(doomed.token, "post-app")).toBeNull();
    expect(await revokeAccessToken(doomed.token, "svc-app")).toEqual({ jti: doomed.jti });
    const revoked = await call({ token: doomed.token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.desc).toBe("revoked_access_token");

    const postToken = await issueAccessToken({ clientId: "post-app", sub: "post-app", subType: "client", scopes: ["idp_api_sys_users"] });
    await updateClient("post-app", { name: "Disabled", scopes: ["idp_api_sys_users"], enabled: false }, {});
    expect((await call({ token: postToken.token })).body.desc).toBe("invalid_access_token");
  });

  it("answers bad JSON, wrong types, unknown fields and parameters with 400 input_error and pos", async () => {
    const broken = await call({ token: systemToken, body: '{"name":' });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ type: "input_error", error: "wrong_values", errors: [{ type: "input_error", error: "wrong_value", pos: "" }] });

    const wrongType = await call({ token: systemToken, body: { name: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0]).toMatchObject({ error: "wrong_value", pos: "name" });

    expect((await call({ token: systemToken, body: { name: "x", admin: true } })).body.errors[0]).toMatchObject({ pos: "admin", desc: "unknown field: admin" });
    expect((await call({ token: systemToken, body: { name: "a\u0000b" } })).body.errors[0]).toMatchObject({ pos: "name" });
    expect((await call({ token: systemToken, query: "?debug=1" })).body.errors[0]).toMatchObject({ pos: "debug" });
    expect((await call({ token: systemToken, headers: { "content-type": "text/plain" } })).status).toBe(415);
  });

  it("turns an unexpected exception into a 500 with a request id that is also in the log line", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const r = await call({ token: systemToken, body: { name: "x", fail: true }, headers: { "x-request-id": "trace-abcdef12" } });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ type: "internal_error", error: "internal_error", desc: "unexpected error; quote the requestId when reporting it", requestId: "trace-abcdef12" });
      expect(JSON.stringify(r.body)).not.toContain("exploded");
      flushLog();
    } finally {
      spy.mockRestore();
    }
    const line = written.join("").split("\n").filter(Boolean).map((w) => JSON.parse(w)).find((l) => l.msg === "unhandled error");
    expect(line).toMatchObject({ level: "error", requestId: "trace-abcdef12", err: { message: "database exploded: password=hunter2" } });
  });

  it("authenticates v1/v2 HTTP Basic with the REST password and marks deprecated operations", async () => {
    const basic = (id: string, pw: string) => new Request("http://idp.test/idp/test/v1", { headers: { authorization: "Basic " + Buffer.from(`${id}:${pw}`).toString("base64") } });
    const ctx = { params: Promise.resolve({}) };
    const ok = await basicRoute(basic("svc-app", fixtureClient("svc-app").restPassword!), ctx);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ actor: { mode: "basic", clientId: "svc-app" } });
    expect(ok.headers.get("deprecation")).toBe("true");

    // The OAuth secret is not the REST password, and a client without one cannot use Basic at all.
    for (const [id, pw] of [["svc-app", fixtureClient("svc-app").secret], ["no-scope-app", "no-scope-secret"], ["ghost", "x"]] as const) {
      const res = await basicRoute(basic(id, pw), ctx);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ type: "security_error", error: "invalid_credential", desc: "client_authentication_failed" });
      expect(res.headers.get("www-authenticate")).toContain("Basic");
    }
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "client.rest_auth_failed" }, select: { clientId: true, params: true } });
    expect(events).toEqual(
      expect.arrayContaining([
        { clientId: "svc-app", params: { reason: "bad_secret" } },
        { clientId: "no-scope-app", params: { reason: "no_rest_password" } },
        { clientId: "ghost", params: { reason: "unknown_client" } },
      ]),
    );
  });
});
