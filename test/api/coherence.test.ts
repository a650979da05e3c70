import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { Browser } from "../support/browser.ts";
import pg from "pg";
import { consoleMutation, mintConsoleSession, trpcCall } from "../support/console.ts";
import { fixtureClient, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";
import { introspect, IVANOV, webAuthorization, webTokens } from "../support/oidc.ts";

const postgres = inject("dbKind") === "postgres";
const ADMIN_PASSWORD = "coherence-admin-password";
const SECRET_KEY = "coherence-secret-key-0123456789abcdef";
const WITHIN_A_SECOND = { timeout: 1_000, interval: 50 };

type TServer = Awaited<ReturnType<typeof startServer>>;

/** The status of a client_credentials grant at one server. */
async function grantStatus(server: TServer, id: string, secret: string, scope = "idp_api_sys_users"): Promise<number> {
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(id, secret) },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }),
  });
  return res.status;
}

/** A client_credentials token of a fixture client, issued by one server. */
async function tokenAt(server: TServer, clientId: string, scope: string): Promise<string> {
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(clientId, fixtureClient(clientId).secret) },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }),
  });
  if (res.status !== 200) throw new Error(`no token from ${server.baseUrl}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** GET /api/v3/users/{sub} at one server: the body of a 200. */
async function readAt(server: TServer, token: string, sub: string): Promise<Record<string, any>> {
  const res = await fetch(`${server.baseUrl}/api/v3/users/${sub}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`read ${sub} at ${server.baseUrl}: ${res.status}`);
  return (await res.json()) as Record<string, any>;
}

async function callAt(server: TServer, method: string, path: string, token: string): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
}

describe.runIf(postgres)("two server processes on one database", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TServer;
  let b: TServer;
  const post = fixtureClient("post-app");

  /**
   * The administrator's console session. Not through the sign-in page: the two servers have two public
   * URLs, and the built-in console client keeps the redirect URI of whichever started last.
   */
  async function adminConsoleCookie(): Promise<string> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>("SELECT id FROM users WHERE login = 'admin'");
    await client.end();
    return mintConsoleSession(SECRET_KEY, rows[0]!.id);
  }

  beforeAll(async () => {
    db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const env = (name: string) => ({
      DATABASE_URL: db.url,
      IDP_SECRET_KEY: SECRET_KEY,
      IDP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      IDP_IMPORT: IMPORT_FIXTURE,
      IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), `idp-coherence-${name}-`)),
    });
    // Started together on an empty database: the first-start steps (signing key, administrator,
    // import) must take turns rather than both create the same rows.
    [a, b] = await Promise.all([startServer({ env: env("a") }), startServer({ env: env("b") })]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  it("sees a secret rotated through the other's console within a second", async () => {
    // Both hold the client in their caches.
    expect(await grantStatus(a, post.id, post.secret)).toBe(200);
    expect(await grantStatus(b, post.id, post.secret)).toBe(200);

    const cookie = await adminConsoleCookie();
    const { secret } = await consoleMutation(a.baseUrl, cookie, "console.clients.rotateSecret", { id: post.id });
    expect(await grantStatus(a, post.id, secret)).toBe(200);
    expect(await grantStatus(a, post.id, post.secret)).toBe(401);

    await expect.poll(() => grantStatus(b, post.id, secret), WITHIN_A_SECOND).toBe(200);
    expect(await grantStatus(b, post.id, post.secret)).toBe(401);
  });

  it("refuses a client disabled through the other's console within a second", async () => {
    const svc = fixtureClient("svc-app");
    expect(await grantStatus(b, svc.id, svc.secret)).toBe(200);

    const cookie = await adminConsoleCookie();
    await consoleMutation(a.baseUrl, cookie, "console.clients.update", { id: svc.id, name: "Service application", scopes: svc.scopes, enabled: false });
    expect(await grantStatus(a, svc.id, svc.secret)).toBe(401);

    await expect.poll(() => grantStatus(b, svc.id, svc.secret), WITHIN_A_SECOND).toBe(401);
  });

  it("refuses a user's token within a second of a session reset through the other", async () => {
    const { tokens } = await webTokens(new Browser({}, b.baseUrl));
    const status = async () => (await callAt(b, "GET", "/api/v3/users/current", tokens.access_token)).status;
    // B has seen the user (and holds "no cutoff" for them) before the reset.
    expect(await status()).toBe(200);

    const read = await callAt(a, "GET", `/api/v3/users/${IVANOV.sub}`, await tokenAt(a, "users-app", "idp_api_sys_users"));
    const { meta } = (await read.json()) as { meta: { instanceId: string } };
    const reset = await callAt(a, "POST", `/api/v3/users/${meta.instanceId}/sessions/reset`, await tokenAt(a, "users-app", "idp_api_sys_usec_chg"));
    expect(reset.status).toBe(204);

    await expect.poll(status, WITHIN_A_SECOND).toBe(401);
    expect((await introspect(tokens.access_token, b.baseUrl)).body).toEqual({ active: false });
  });

  it("shows authentication modes changed through the other server within a second, though it had them cached", async () => {
    const read = await tokenAt(b, "otp-app", "idp_api_sys_usec");
    const modesAtB = async () => (await (await callAt(b, "GET", "/api/v3/users/ivanova/auth", read)).json()) as Record<string, unknown>;
    expect(await modesAtB()).toEqual({ needPasswordChange: false, methodsLocked: [] });
    const change = await tokenAt(a, "otp-app", "idp_api_sys_usec_chg");
    const res = await fetch(`${a.baseUrl}/api/v3/users/ivanova/auth`, {
      method: "POST",
      headers: { authorization: `Bearer ${change}`, "content-type": "application/json" },
      body: JSON.stringify({ needPasswordChange: true, methodsLocked: ["password"] }),
    });
    expect(res.status).toBe(200);
    await expect.poll(modesAtB, WITHIN_A_SECOND).toEqual({ needPasswordChange: true, methodsLocked: ["password"] });
  });

  it("shows an account changed through the other server within a second, though it had the account cached", async () => {
    const readToken = await tokenAt(b, "users-app", "idp_api_sys_users");
    const before = await readAt(b, readToken, "ivanov");
    expect(before.given_name).toBe("Иван");

    const res = await fetch(`${a.baseUrl}/api/v3/users/${before.meta.instanceId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await tokenAt(a, "users-app", "idp_api_sys_users_chg")}`, "content-type": "application/json" },
      body: JSON.stringify({ given_name: "Иоанн" }),
    });
    expect(res.status).toBe(200);
    const changed = (await res.json()) as { meta: { instanceId: string } };

    await expect.poll(async () => (await readAt(b, readToken, "ivanov")).given_name, WITHIN_A_SECOND).toBe("Иоанн");
    expect((await readAt(b, readToken, "ivanov")).meta.instanceId).toBe(changed.meta.instanceId);
  });

  it("applies a catalog and a client's attribute selection imported from the command line within a second", async () => {
    const readToken = await tokenAt(b, "users-app", "idp_api_sys_users");
    const before = await readAt(b, readToken, "petrov");
    expect(Object.keys(before).sort()).toEqual(["family_name", "given_name", "locked", "meta", "sub"]);
    expect(before.meta.unmodifiable).toEqual(["sub"]);

    const users = fixtureClient("users-app");
    const doc = path.join(mkdtempSync(path.join(tmpdir(), "idp-coherence-import-")), "import.json");
    writeFileSync(doc, JSON.stringify({
      attributes: [{ name: "badge_no", type: "string", unmodifiable: true }],
      clients: [{ ...users, attributes: { idp_api_sys_users: ["sub", "family_name", "badge_no"] } }],
    }));
    await promisify(execFile)(process.execPath, ["scripts/idp.mjs", "import", doc], {
      env: { ...process.env, DATABASE_URL: db.url, IDP_SECRET_KEY: SECRET_KEY },
    });

    const expected = { sub: "petrov", family_name: "Петров", meta: { instanceId: before.meta.instanceId, unmodifiable: ["sub", "badge_no"] } };
    await expect.poll(() => readAt(b, readToken, "petrov"), WITHIN_A_SECOND).toEqual(expected);
  });

  it("offers on its sign-in form, within a second, an external provider created and deleted through the other's console", async () => {
    const fpName = `coherence-${Date.now()}`;
    const offeredAtB = async () => (await new Browser({}, b.baseUrl).open(webAuthorization({}, b.baseUrl).url)).text.includes(`oidc:${fpName}`);
    // B's form has been shown, so B holds the list of providers it offers.
    expect(await offeredAtB()).toBe(false);

    const cookie = await adminConsoleCookie();
    await consoleMutation(a.baseUrl, cookie, "console.providers.create", { fpType: "oidc", fpName, clientId: "x", clientSecret: "y", discoveryUrl: "http://127.0.0.1:9", offeredAtSignIn: true });
    await expect.poll(offeredAtB, WITHIN_A_SECOND).toBe(true);
    await consoleMutation(a.baseUrl, cookie, "console.providers.delete", { fpType: "oidc", fpName });
    await expect.poll(offeredAtB, WITHIN_A_SECOND).toBe(false);
  });

  it("checks passwords against a policy saved through the other's console within a second", async () => {
    const read = await callAt(a, "GET", `/api/v3/users/${IVANOV.sub}`, await tokenAt(a, "users-app", "idp_api_sys_users"));
    const { meta } = (await read.json()) as { meta: { instanceId: string } };
    const token = await tokenAt(b, "users-app", "idp_api_sys_usec_chg");
    // A password no policy accepts: B's answer tells which minimum it holds, and nothing changes.
    const lowAtB = async () => {
      const res = await fetch(`${b.baseUrl}/api/v3/users/${meta.instanceId}/pswd`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ password: "abc" }),
      });
      return ((await res.json()) as { errors: { params: { low: number } }[] }).errors[0]!.params.low;
    };
    expect(await lowAtB()).toBe(15);

    const cookie = await adminConsoleCookie();
    await consoleMutation(a.baseUrl, cookie, "console.passwordPolicy.save", { minLength: 20 });
    await expect.poll(lowAtB, WITHIN_A_SECOND).toBe(20);
    await consoleMutation(a.baseUrl, cookie, "console.passwordPolicy.save", {});
    await expect.poll(lowAtB, WITHIN_A_SECOND).toBe(15);
  });

  it("applies a passkey policy saved through one server at the other within a second", async () => {
    const cookie = await adminConsoleCookie();
    const offeredAtB = async () => (await trpcCall(b.baseUrl, cookie, "console.passkeyPolicy.get")).body.result!.data.policy.offered as boolean;
    expect(await offeredAtB()).toBe(true);
    await consoleMutation(a.baseUrl, cookie, "console.passkeyPolicy.save", { offered: false });
    await expect.poll(offeredAtB, WITHIN_A_SECOND).toBe(false);
    await consoleMutation(a.baseUrl, cookie, "console.passkeyPolicy.save", {});
    await expect.poll(offeredAtB, WITHIN_A_SECOND).toBe(true);
  });

  it("shows properties and an account state changed through the other server within a second, though it had them cached", async () => {
    const json = async (r: Response) => (await r.json()) as Record<string, unknown>;
    const [propsRead, stateRead] = [await tokenAt(b, "users-app", "idp_api_sys_users"), await tokenAt(b, "users-app", "idp_api_sys_usec")];
    expect(await json(await callAt(b, "GET", "/api/v3/users/ivanova/props", propsRead))).toEqual({});
    expect(await json(await callAt(b, "GET", "/api/v3/users/ivanova/state", stateRead))).toEqual({ name: "initial" });

    const change = (url: string, scope: string, body: unknown) =>
      tokenAt(a, "users-app", scope).then((token) =>
        fetch(`${a.baseUrl}${url}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) }),
      );
    expect((await change("/api/v3/users/ivanova/props", "idp_api_sys_users_chg", { add: { plan: "pro" } })).status).toBe(200);
    expect((await change("/api/v3/users/ivanova/state", "idp_api_sys_usec_chg", { name: "untouchable" })).status).toBe(204);

    await expect.poll(async () => json(await callAt(b, "GET", "/api/v3/users/ivanova/props", propsRead)), WITHIN_A_SECOND).toEqual({ plan: "pro" });
    await expect.poll(async () => json(await callAt(b, "GET", "/api/v3/users/ivanova/state", stateRead)), WITHIN_A_SECOND).toEqual({ name: "untouchable" });
  });

  it("lists rights granted, revoked and force-deleted through the other server within a second, though it had them cached", async () => {
    const json = (method: string, token: string, body: unknown) => ({ method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const rightsAt = async (server: TServer) =>
      (await (await callAt(server, "GET", "/api/v3/rights/of/ivanov", await tokenAt(server, "rights-app", "idp_rights_full_access"))).json()) as Record<string, unknown>;
    const record = { subject: "ivanov", object: "petrov", rights: ["read_reports"], tags: ["coherence"] };
    const grantAt = async (server: TServer, method: string, body: unknown = record) =>
      (await fetch(`${server.baseUrl}/api/v3/rights`, json(method, await tokenAt(server, "rights-app", "idp_rights_full_access"), body))).status;
    // B holds the definitions and ivanov's rights in its caches.
    expect(await grantAt(b, "PUT")).toBe(204);
    expect(await rightsAt(b)).toEqual({ petrov: { read_reports: ["coherence"] } });

    expect(await grantAt(a, "DELETE")).toBe(204);
    await expect.poll(() => rightsAt(b), WITHIN_A_SECOND).toEqual({});
    expect(await grantAt(a, "PUT")).toBe(204);
    await expect.poll(() => rightsAt(b), WITHIN_A_SECOND).toEqual({ petrov: { read_reports: ["coherence"] } });
    expect(await grantAt(a, "DELETE")).toBe(204);

    // A definition created at A is grantable at B within a second; deleted by force at A, its grants vanish at B.
    const admin = await tokenAt(a, "rights-app", "idp_api_sys_rights_chg");
    const defined = await fetch(`${a.baseUrl}/admin/api/v3/rights/coherence_right`, json("PUT", admin, { subjectKinds: ["user"], objectKinds: ["user"] }));
    expect(defined.status).toBe(200);
    await expect.poll(() => grantAt(b, "PUT", { ...record, rights: ["coherence_right"] }), WITHIN_A_SECOND).toBe(204);
    expect(await rightsAt(b)).toEqual({ petrov: { coherence_right: ["coherence"] } });
    expect((await callAt(a, "DELETE", "/admin/api/v3/rights/coherence_right?force=true", admin)).status).toBe(204);
    await expect.poll(() => rightsAt(b), WITHIN_A_SECOND).toEqual({});
  });

  it("shows group changes, memberships and deletions made through the other server within a second, though it had them cached", async () => {
    const send = async (server: TServer, method: string, path: string, body?: unknown) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${await tokenAt(server, "groups-app", "idp_api_sys_groups_chg")}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const readAtB = async (path: string) => {
      const res = await callAt(b, "GET", path, await tokenAt(b, "groups-app", "idp_api_sys_groups"));
      return res.status === 200 ? ((await res.json()) as any) : res.status;
    };
    expect((await send(a, "POST", "/api/v3/groups/departments/coherence-g", { title: "Before" })).status).toBe(201);
    await expect.poll(() => readAtB("/api/v3/groups/coherence-g").then((g) => g.title), WITHIN_A_SECOND).toBe("Before");
    expect((await readAtB("/api/v3/users/ivanova/grps")).map((g: { id: string }) => g.id)).not.toContain("coherence-g");

    expect((await send(a, "PUT", "/api/v3/groups/departments/coherence-g", { title: "After" })).status).toBe(200);
    expect((await send(a, "POST", "/api/v3/groups/departments/coherence-g/members/ivanova")).status).toBe(204);
    await expect.poll(() => readAtB("/api/v3/groups/coherence-g"), WITHIN_A_SECOND).toMatchObject({ title: "After", members: ["ivanova"] });
    await expect.poll(() => readAtB("/api/v3/users/ivanova/grps").then((l) => l.map((g: { id: string }) => g.id)), WITHIN_A_SECOND).toContain("coherence-g");

    expect((await send(a, "DELETE", "/api/v3/groups/departments/coherence-g")).status).toBe(204);
    await expect.poll(() => readAtB("/api/v3/groups/coherence-g"), WITHIN_A_SECOND).toBe(404);
    await expect.poll(() => readAtB("/api/v3/users/ivanova/grps").then((l) => l.map((g: { id: string }) => g.id)), WITHIN_A_SECOND).not.toContain("coherence-g");
  });
});
