import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { createUser, createUserWithPassword, unique } from "../support/accounts.ts";
import { Browser } from "../support/browser.ts";
import { api, request, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

// Providers come from the import fixture: oidc:corp and oauth2:social.
const sys = (scope: string) => systemToken("users-app", scope);
const list = async (subject: string, scope = "idp_api_sys_ufa") => api("GET", `/api/v3/users/${encodeURIComponent(subject)}/fa`, { token: await sys(scope) });
const faPath = (subject: string, fpType: string, fpName: string, sid: string) =>
  `/api/v3/users/${encodeURIComponent(subject)}/fa/${encodeURIComponent(fpType)}/${encodeURIComponent(fpName)}/${encodeURIComponent(sid)}`;
const bind = async (subject: string, sid: string, body?: unknown, provider: [string, string] = ["oidc", "corp"], scope = "idp_api_sys_ufa_chg") =>
  api("POST", faPath(subject, provider[0], provider[1], sid), { token: await sys(scope), body });
const unbind = async (subject: string, sid: string, provider: [string, string] = ["oidc", "corp"], scope = "idp_api_sys_ufa_chg") =>
  api("DELETE", faPath(subject, provider[0], provider[1], sid), { token: await sys(scope) });
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await sys("idp_api_sys_uaud") })).body.events as { ip?: string; params: Record<string, unknown> }[];

describe("external account bindings in system mode", () => {
  it("binds, renames, keeps the name when none is sent, lists and unbinds", async () => {
    const { sub } = await createUser();
    expect(await list(sub)).toMatchObject({ status: 200, body: [] });
    const sid = unique("ext-");

    const first = await bind(sub, sid);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expect((await list(sub)).body).toEqual([{ sid, fpType: "oidc", fpName: "corp" }]);

    expect((await bind(sub, sid, { federatedAccountName: "ivan@corp" })).status).toBe(204);
    expect((await bind(sub, sid)).status).toBe(204);
    expect((await bind(sub, sid, {})).status).toBe(204);
    const odd = "a/b ё?#%";
    expect((await bind(sub, odd, { federatedAccountName: "Иван" }, ["oauth2", "social"])).status).toBe(204);
    expect((await list(sub)).body).toEqual([
      { sid, fpType: "oidc", fpName: "corp", userName: "ivan@corp" },
      { sid: odd, fpType: "oauth2", fpName: "social", userName: "Иван" },
    ]);

    const removed = await unbind(sub, sid);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await list(sub)).body).toEqual([{ sid: odd, fpType: "oauth2", fpName: "social", userName: "Иван" }]);
    const again = await unbind(sub, sid);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ type: "not_found_error", error: "unknown_fa" });
    expect((await unbind(sub, odd, ["oauth2", "social"])).status).toBe(204);
    expect((await list(sub)).body).toEqual([]);

    const bound = await eventsOf(sub, "user.fa_bound");
    expect(bound.length).toBe(5);
    expect(bound.map((e) => e.params.rebound).sort()).toEqual([false, false, true, true, true]);
    expect(bound.some((e) => e.params.provider === "oauth2:social" && e.params.sid === odd)).toBe(true);
    expect((await eventsOf(sub, "user.fa_unbound")).length).toBe(2);
  });

  it("binds one external account to one user only: another user's bind is 409 and changes nothing", async () => {
    const a = await createUser();
    const b = await createUser();
    const sid = unique("ext-");
    expect((await bind(a.sub, sid, { federatedAccountName: "first" })).status).toBe(204);
    const taken = await bind(b.sub, sid, { federatedAccountName: "second" });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ type: "process_error", error: "fa_bound_to_other_user", desc: "this external account is bound to another user", params: { fpType: "oidc", fpName: "corp", sid } });
    expect((await list(b.sub)).body).toEqual([]);
    expect((await unbind(b.sub, sid)).status).toBe(404);
    expect((await list(a.sub)).body).toEqual([{ sid, fpType: "oidc", fpName: "corp", userName: "first" }]);
    // The same sid at another provider is another external account.
    expect((await bind(b.sub, sid, undefined, ["oauth2", "social"])).status).toBe(204);
  });

  it("of parallel binds of one sid to different users, exactly one wins", async () => {
    const users = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
    const sid = unique("race-");
    const results = await Promise.all(users.map((u) => bind(u.sub, sid)));
    expect(results.map((r) => r.status).sort()).toEqual([204, 409, 409, 409]);
    const winner = users[results.findIndex((r) => r.status === 204)]!;
    for (const u of users) expect((await list(u.sub)).body).toEqual(u === winner ? [{ sid, fpType: "oidc", fpName: "corp" }] : []);
  });

  it("refuses an unknown provider, user, malformed path or body with a 4xx in the contract's shape, changing nothing", async () => {
    const { sub } = await createUser();
    const unknown = await bind(sub, "x", undefined, ["oidc", "nope"]);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ type: "not_found_error", error: "unknown_fp", desc: "external provider not found" });
    expect((await unbind(sub, "x", ["oauth2", "corp"])).body).toMatchObject({ error: "unknown_fp" });
    expect((await bind("no-such-user-" + unique(""), "x")).body).toMatchObject({ type: "not_found_error", error: "unknown_user" });
    expect((await list("no-such-user-" + unique(""))).status).toBe(404);

    const badType = await bind(sub, "x", undefined, ["saml", "corp"]);
    expect(badType.status).toBe(400);
    expect(badType.body).toMatchObject({ type: "input_error", error: "wrong_values" });
    expect(JSON.stringify(badType.body.errors)).toContain("fpType");
    expect((await bind(sub, "x", undefined, ["oidc", "bad name"])).status).toBe(400);
    expect((await bind(sub, "s".repeat(257))).status).toBe(400);
    expect((await bind(sub, "x", { federatedAccountName: 5 })).body).toMatchObject({ type: "input_error", error: "wrong_values" });
    expect((await bind(sub, "x", { federatedAccountName: "n", extra: true })).status).toBe(400);
    expect((await bind(sub, "x", [])).status).toBe(400);
    const token = await sys("idp_api_sys_ufa_chg");
    const notJson = await request(faPath(sub, "oidc", "corp", "x"), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ type: "input_error", error: "wrong_values" });
    const text = await request(faPath(sub, "oidc", "corp", "x"), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" }, body: "hi" });
    expect(text.status).toBe(415);
    const escape = await request(`/api/v3/users/${sub}/fa/oidc/corp/%zz`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(escape.status).toBe(400);
    expect(escape.body).toMatchObject({ type: "input_error", error: "wrong_values" });
    const wrongMethod = await api("GET", faPath(sub, "oidc", "corp", "x"), { token });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    expect((await list(sub)).body).toEqual([]);
    expect(await eventsOf(sub, "user.fa_bound")).toEqual([]);
  });

  it("takes the scopes the contract names: ufa reads, ufa_chg changes, and the POST binding accepts both", async () => {
    const { sub } = await createUser();
    const sid = unique("ext-");
    const missing = await list(sub, "idp_api_sys_ufa_chg");
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ type: "security_error", error: "bad_access_token", desc: "missing scopes: idp_api_sys_ufa" });
    expect((await list(sub, "idp_api_sys_users")).status).toBe(401);
    expect((await bind(sub, sid, undefined, ["oidc", "corp"], "idp_api_sys_users")).status).toBe(401);
    // The read scope does not bind (the scope table names it, but a reader must not bind a sid of its choice).
    expect((await bind(sub, sid, undefined, ["oidc", "corp"], "idp_api_sys_ufa")).status).toBe(401);
    expect((await bind(sub, sid)).status).toBe(204);
    expect((await unbind(sub, sid, ["oidc", "corp"], "idp_api_sys_ufa")).status).toBe(401);
    expect((await list(sub)).body).toEqual([{ sid, fpType: "oidc", fpName: "corp" }]);
    expect((await api("GET", `/api/v3/users/${sub}/fa`)).status).toBe(401);
  });
});

describe("external account bindings in user mode", () => {
  it("lists and removes on `current` and the own subject, records the address, and refuses another account", async () => {
    const me = await createUserWithPassword();
    const other = await createUser();
    const ip = "203.0.113.61";
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope: "openid idp_api_ufa idp_api_ufa_chg" }, { identifier: me.sub, password: me.password });
    const call = (method: string, path: string, body?: unknown) =>
      api(method, path, { token: tokens.access_token, body, headers: { "x-forwarded-for": ip, "user-agent": "FaTest/1.0" } });
    const sid = unique("mine-");
    expect((await bind(me.sub, sid, { federatedAccountName: "me" })).status).toBe(204);
    expect((await call("GET", `/api/v3/users/current/fa`)).body).toEqual([{ sid, fpType: "oidc", fpName: "corp", userName: "me" }]);
    expect((await call("GET", `/api/v3/users/${me.sub}/fa`)).body).toEqual([{ sid, fpType: "oidc", fpName: "corp", userName: "me" }]);
    const foreign = await call("POST", faPath(other.sub, "oidc", "corp", unique("x-")));
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await call("GET", `/api/v3/users/${other.sub}/fa`)).status).toBe(401);
    expect((await call("DELETE", faPath("current", "oidc", "corp", sid))).status).toBe(204);
    expect((await call("GET", `/api/v3/users/current/fa`)).body).toEqual([]);
    const [event] = await eventsOf(me.sub, "user.fa_unbound");
    expect(event).toMatchObject({ ip, userAgent: "FaTest/1.0" });
  });

  it("cannot claim someone else's external account by its sid: the path form is for administrators", async () => {
    // The victim's external account is known to the attacker (sids are often e-mail addresses or
    // public profile ids). Were the bind allowed, the victim's next "Sign in with …" would land in
    // the attacker's account.
    const attacker = await createUserWithPassword();
    const victimSid = unique("victim-");
    const { tokens } = await webTokens(new Browser(), { scope: "openid idp_api_ufa idp_api_ufa_chg" }, { identifier: attacker.sub, password: attacker.password });
    for (const subject of ["current", attacker.sub]) {
      const r = await api("POST", faPath(subject, "oidc", "corp", victimSid), { token: tokens.access_token, body: { federatedAccountName: "victim" } });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ type: "security_error", error: "access_denied" });
      expect(String(r.body.desc)).toContain("/api/v3/users/current/fa/bind");
    }
    expect((await list(attacker.sub)).body).toEqual([]);
    expect(await eventsOf(attacker.sub, "user.fa_bound")).toEqual([]);
    // The sid stays free for its real owner.
    const owner = await createUser();
    expect((await bind(owner.sub, victimSid)).status).toBe(204);
  });
});

describe("provider secrets", () => {
  it("never reach the server's log: the import file gives them in plain text", () => {
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).toContain("import applied");
    expect(log).toContain("oidc:corp");
    expect(log).not.toContain("corp-client-secret-plain");
    expect(log).not.toContain("social-client-secret-plain");
  });
});
