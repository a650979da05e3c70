import { describe, expect, it } from "vitest";
import { createUser, createUserWithPassword, unique } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, request, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

const rightsToken = () => systemToken("rights-app", "idp_rights_full_access");
const adminToken = () => systemToken("rights-app", "idp_api_sys_rights_chg");
const grant = async (body: unknown) => api("PUT", "/api/v3/rights", { token: await rightsToken(), body });
const revoke = async (body: unknown) => api("DELETE", "/api/v3/rights", { token: await rightsToken(), body });
const read = async (path: string, token?: string) => api("GET", path, { token: token ?? (await rightsToken()) });
const define = async (name: string, body: unknown) => api("PUT", `/admin/api/v3/rights/${name}`, { token: await adminToken(), body });
const audit = async (sub: string) => api("GET", `/api/v3/users/${sub}/audit?type=rights.granted`, { token: await systemToken("users-app", "idp_api_sys_uaud") });

function processError(r: { status: number; body: unknown }, error: string, params: Record<string, unknown>) {
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ type: "process_error", error, desc: expect.any(String), params });
}

describe("right definitions: /admin/api/v3/rights/{right_name}", () => {
  it("refuses an end user's token even when it carries idp_api_sys_rights_chg: nothing is defined, changed or deleted", async () => {
    const me = await createUserWithPassword();
    const name = unique("victim_");
    const original = { description: { ru: "Платежи", en: "Payments" }, subjectKinds: ["user"], objectKinds: ["user"] };
    expect((await define(name, original)).status).toBe(200);
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: "openid idp_api_sys_rights_chg" }, { identifier: me.sub, password: me.password });
    expect(tokens.scope.split(" ")).toContain("idp_api_sys_rights_chg");
    const token = tokens.access_token;
    const attempts = [
      await api("PUT", `/admin/api/v3/rights/${name}`, { token, body: { subjectKinds: ["user", "application"], objectKinds: ["user", "group", "application"] } }),
      await api("PUT", `/admin/api/v3/rights/${unique("mine_")}`, { token, body: { subjectKinds: ["user"], objectKinds: ["user"] } }),
      await api("DELETE", `/admin/api/v3/rights/${name}?force=true`, { token }),
      await api("GET", `/admin/api/v3/rights/${name}`, { token }),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ type: "security_error", error: "bad_access_token", desc: expect.stringContaining("user-mode") });
    }
    expect((await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() })).body).toEqual({ name, ...original, builtin: false, grants: 0 });
  });

  it("creates, reads, replaces and deletes a definition; a granted one only when forced", async () => {
    const name = unique("docs_");
    const body = { description: { ru: "Документы", en: "Documents" }, subjectKinds: ["user", "application"], objectKinds: ["user", "group"] };
    const created = await define(name, body);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ name, ...body, builtin: false, grants: 0 });
    expect((await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() })).body).toEqual(created.body);
    const replaced = await define(name, { subjectKinds: ["user"], objectKinds: ["user"] });
    expect(replaced.body).toEqual({ name, description: { ru: "", en: "" }, subjectKinds: ["user"], objectKinds: ["user"], builtin: false, grants: 0 });

    const [a, b] = [await createUser(), await createUser()];
    expect((await grant({ subject: a.sub, object: b.sub, rights: [name], tags: ["t1", "t2"] })).status).toBe(204);
    expect((await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() })).body.grants).toBe(1);
    const refused = await api("DELETE", `/admin/api/v3/rights/${name}`, { token: await adminToken() });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ type: "process_error", error: "right_in_use", desc: expect.any(String), params: { right: name, grants: 1 } });
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ [b.sub]: { [name]: ["t1", "t2"] } });
    expect((await api("DELETE", `/admin/api/v3/rights/${name}?force=true`, { token: await adminToken() })).status).toBe(204);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
    const gone = await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ type: "not_found_error", error: "unknown_right" });
  });

  it("has the built-in change_password and change_attrs, which cannot be deleted or retyped", async () => {
    for (const name of ["change_password", "change_attrs"]) {
      const r = await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() });
      expect(r.body).toMatchObject({ name, builtin: true, subjectKinds: ["user"], objectKinds: ["user"] });
    }
    processError(await api("DELETE", "/admin/api/v3/rights/change_password?force=true", { token: await adminToken() }), "builtin_right", { right: "change_password" });
    processError(await define("change_attrs", { subjectKinds: ["application"], objectKinds: ["user"] }), "builtin_right", { right: "change_attrs" });
  });

  it("has the fixture's imported definitions", async () => {
    const r = await api("GET", "/admin/api/v3/rights/read_reports", { token: await adminToken() });
    expect(r.body).toMatchObject({ name: "read_reports", description: { ru: "Чтение отчётов", en: "Read reports" }, subjectKinds: ["user", "application"] });
  });

  it("refuses bad names, bodies, queries and tokens, changing nothing", async () => {
    const name = unique("bad_");
    for (const body of [{}, { subjectKinds: ["robot"], objectKinds: ["user"] }, { subjectKinds: [], objectKinds: ["user"] }, { subjectKinds: ["user", "user"], objectKinds: ["user"] }, { subjectKinds: ["user"], objectKinds: ["user"], extra: 1 }, { subjectKinds: "user", objectKinds: ["user"] }]) {
      const r = await define(name, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.type).toBe("input_error");
    }
    expect((await define("bad%20name", { subjectKinds: ["user"], objectKinds: ["user"] })).status).toBe(400);
    expect((await define("x".repeat(200), { subjectKinds: ["user"], objectKinds: ["user"] })).status).toBe(400);
    expect((await api("GET", `/admin/api/v3/rights/${name}`, { token: await adminToken() })).status).toBe(404);
    expect((await api("DELETE", `/admin/api/v3/rights/${name}?force=yes`, { token: await adminToken() })).status).toBe(400);
    const noScope = await api("GET", "/admin/api/v3/rights/change_password", { token: await rightsToken() });
    expect(noScope.status).toBe(401);
    expect(noScope.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await api("GET", "/admin/api/v3/rights/change_password")).status).toBe(401);
    const post = await api("POST", "/admin/api/v3/rights/change_password", { token: await adminToken(), body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, PUT, DELETE");
  });
});

describe("grants: PUT and DELETE /api/v3/rights", () => {
  it("adds tags, removes only the listed ones, and the right goes with its last tag", async () => {
    const [a, b] = [await createUser(), await createUser()];
    expect((await grant({ subject: a.sub, object: b.sub, rights: ["change_password", "change_attrs"], tags: ["hr"] })).status).toBe(204);
    expect((await grant({ subject: a.sub, object: b.sub, rights: ["change_password"], tags: ["boss", "hr"] })).status).toBe(204);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ [b.sub]: { change_attrs: ["hr"], change_password: ["boss", "hr"] } });
    expect((await read(`/api/v3/rights/on/${b.sub}`)).body).toEqual({ [a.sub]: ["change_attrs", "change_password"] });
    const partial = await revoke({ subject: a.sub, object: b.sub, rights: ["change_password", "change_attrs"], tags: ["hr"] });
    expect(partial.status).toBe(204);
    expect(partial.text).toBe("");
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ [b.sub]: { change_password: ["boss"] } });
    expect((await revoke({ subject: a.sub, object: b.sub, rights: ["change_password"], tags: ["boss", "never-given"] })).status).toBe(204);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
    expect((await read(`/api/v3/rights/on/${b.sub}`)).body).toEqual({});
  });

  it("joins applications as subjects and objects, with the contract's keys", async () => {
    const a = await createUser();
    expect((await grant({ subject: "svc-app", subjectType: "its", object: a.sub, rights: ["read_reports"], tags: ["sync"] })).status).toBe(204);
    expect((await grant({ subject: a.sub, object: "svc-app", objectType: "its", rights: ["manage_app", "read_reports"], tags: ["владелец"] })).status).toBe(204);
    expect((await read(`/api/v3/rights/on/${a.sub}`)).body).toEqual({ "its|svc-app": ["read_reports"] });
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ "its|svc-app": { manage_app: ["владелец"], read_reports: ["владелец"] } });
    expect((await read("/api/v3/rights/of/its/svc-app")).body[a.sub]).toEqual({ read_reports: ["sync"] });
    expect((await read("/api/v3/rights/on/its/svc-app")).body[a.sub]).toEqual(["manage_app", "read_reports"]);
    processError(await grant({ subject: "svc-app", subjectType: "its", object: a.sub, rights: ["manage_app"], tags: ["x"] }), "right_kind_not_allowed", { right: "manage_app", subjectKind: "application" });
    processError(await grant({ subject: a.sub, object: a.sub, rights: ["manage_app"], tags: ["x"] }), "right_kind_not_allowed", { right: "manage_app", objectKind: "user" });
  });

  it("answers unknown rights, users, groups and applications with 400 process_error, changing nothing", async () => {
    const a = await createUser();
    processError(await grant({ subject: a.sub, object: a.sub, rights: ["change_password", "no_such_right"], tags: ["x"] }), "unknown_right", { right: "no_such_right" });
    processError(await grant({ subject: "no-such-user", object: a.sub, rights: ["change_password"], tags: ["x"] }), "unknown_user", { userId: "no-such-user" });
    processError(await grant({ subject: a.sub, object: "no-such-user", rights: ["change_password"], tags: ["x"] }), "unknown_user", { userId: "no-such-user" });
    processError(await grant({ subject: a.sub, object: "g-1", objectType: "grps", objectExt: "orgs", rights: ["read_reports"], tags: ["x"] }), "unknown_group", { grpId: "g-1", profile: "orgs" });
    processError(await grant({ subject: "no-app", subjectType: "its", object: a.sub, rights: ["read_reports"], tags: ["x"] }), "unknown_rp", { rpId: "no-app" });
    processError(await revoke({ subject: a.sub, object: "no-app", objectType: "its", rights: ["read_reports"], tags: ["x"] }), "unknown_rp", { rpId: "no-app" });
    processError(await revoke({ subject: a.sub, object: a.sub, rights: ["no_such_right"], tags: ["x"] }), "unknown_right", { right: "no_such_right" });
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
  });

  it("refuses malformed records with 400 input_error, and tokens without the scope with 401", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const ok = { subject: a.sub, object: b.sub, rights: ["change_password"], tags: ["x"] };
    for (const body of [
      { ...ok, subjectType: "user" },
      { ...ok, objectType: "users" },
      { ...ok, tags: [] },
      { ...ok, rights: [] },
      { ...ok, tags: ["x", "x"] },
      { ...ok, rights: "change_password" },
      { ...ok, tags: [1] },
      { ...ok, tags: ["line\nbreak"] },
      { ...ok, tags: [" padded"] },
      { ...ok, tags: ["x".repeat(129)] },
      { ...ok, subject: "" },
      { ...ok, subjecttype: "its" },
      { ...ok, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      [ok],
      null,
    ]) {
      const r = await grant(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.type).toBe("input_error");
    }
    const malformed = await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: undefined, headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    const huge = await request("/api/v3/rights", { method: "PUT", headers: { authorization: `Bearer ${await rightsToken()}`, "content-type": "application/json" }, body: JSON.stringify({ ...ok, tags: ["x".repeat(2_000_000)] }) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ type: "input_error", error: "wrong_values" });
    const wrongScope = await api("PUT", "/api/v3/rights", { token: await systemToken("svc-app", "idp_api_sys_users"), body: ok });
    expect(wrongScope.status).toBe(401);
    expect(wrongScope.body).toMatchObject({ type: "security_error", error: "bad_access_token", desc: expect.stringContaining("idp_rights_full_access") });
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
    expect((await api("POST", "/api/v3/rights", { token: await rightsToken(), body: ok })).status).toBe(405);
  });

  it("records every grant and revoke as a security event: who, what, tags and client", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await grant({ subject: a.sub, object: b.sub, rights: ["change_attrs"], tags: ["why"] });
    const events = (await audit(a.sub)).body.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "rights.granted",
      clientId: "rights-app",
      params: { subject: a.sub, subjectType: "user", object: b.sub, objectType: "user", rights: ["change_attrs"], tags: ["why"], changedTags: 1 },
    });
    await revoke({ subject: a.sub, object: b.sub, rights: ["change_attrs"], tags: ["why"] });
    const revoked = (await api("GET", `/api/v3/users/${a.sub}/audit?type=rights.revoked`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events;
    expect(revoked[0]).toMatchObject({ type: "rights.revoked", clientId: "rights-app", params: { tags: ["why"], rights: ["change_attrs"], changedTags: 1 } });
  });

  it("ends many parallel grants and revokes of tags on one right as a serial order would", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const one = (tag: string) => ({ subject: a.sub, object: b.sub, rights: ["change_password"], tags: [tag] });
    const first = Array.from({ length: 40 }, (_, i) => `t${i}`);
    const results = await Promise.all(first.map((t) => grant(one(t))));
    expect(results.map((r) => r.status)).toEqual(first.map(() => 204));
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body[b.sub].change_password.sort()).toEqual([...first].sort());

    const second = Array.from({ length: 20 }, (_, i) => `u${i}`);
    const mixed = await Promise.all([...first.slice(1).map((t) => revoke(one(t))), ...second.map((t) => grant(one(t)))]);
    expect(mixed.every((r) => r.status === 204)).toBe(true);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body[b.sub].change_password.sort()).toEqual(["t0", ...second].sort());

    const last = await Promise.all(["t0", ...second].map((t) => revoke(one(t))));
    expect(last.every((r) => r.status === 204)).toBe(true);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
    expect((await read(`/api/v3/rights/on/${b.sub}`)).body).toEqual({});
  });
});

describe("rights and deletions", () => {
  it("drops an account's rights from every listing when the account is deleted", async () => {
    const [a, b] = [await createUser(), await createUser()];
    await grant({ subject: a.sub, object: b.sub, rights: ["change_attrs"], tags: ["x"] });
    expect((await read(`/api/v3/rights/on/${b.sub}`)).body).toEqual({ [a.sub]: ["change_attrs"] });
    const deleted = await api("DELETE", `/api/v3/users/${a.instanceId}`, { token: await systemToken("users-app", "idp_api_sys_users_chg") });
    expect(deleted.status).toBe(204);
    expect((await read(`/api/v3/rights/on/${b.sub}`)).body).toEqual({});
    processError(await read(`/api/v3/rights/of/${a.sub}`), "unknown_user", { userId: a.sub });
  });

  it("answers grants racing a forced deletion of their right with 204 or unknown_right, never a 500, and leaves none behind", async () => {
    const name = unique("race_");
    expect((await define(name, { subjectKinds: ["user"], objectKinds: ["user"] })).status).toBe(200);
    const [a, b] = [await createUser(), await createUser()];
    const racing = Array.from({ length: 15 }, (_, i) => grant({ subject: a.sub, object: b.sub, rights: [name], tags: [`t${i}`] }));
    const [deleted, ...grants] = await Promise.all([api("DELETE", `/admin/api/v3/rights/${name}?force=true`, { token: await adminToken() }), ...racing]);
    expect(deleted.status).toBe(204);
    for (const g of grants) {
      if (g.status !== 204) processError(g, "unknown_right", { right: name });
    }
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
  });
});

describe("listings", () => {
  it("answers unknown subjects and objects with 400, an unknown group too", async () => {
    processError(await read("/api/v3/rights/of/no-such-user"), "unknown_user", { userId: "no-such-user" });
    processError(await read("/api/v3/rights/on/no-such-user"), "unknown_user", { userId: "no-such-user" });
    processError(await read("/api/v3/rights/of/its/no-app"), "unknown_rp", { rpId: "no-app" });
    processError(await read("/api/v3/rights/on/its/no-app"), "unknown_rp", { rpId: "no-app" });
    processError(await read("/api/v3/rights/on/grps/g-1?objectExt=orgs"), "unknown_group", { grpId: "g-1", profile: "orgs" });
    processError(await read("/api/v3/rights/on/grps/g-1"), "unknown_group", { grpId: "g-1" });
    processError(await read("/api/v4/rights/on/no-such-user"), "unknown_user", { userId: "no-such-user" });
    expect((await read("/api/v3/rights/on/grps/g-1?profile=orgs")).status).toBe(400);
    const user = await createUser();
    expect((await read(`/api/v3/rights/of/${user.sub}`)).body).toEqual({});
    processError(await read("/api/v3/rights/of/current"), "unknown_user", { userId: "current" });
  });

  it("pages GET /api/v4/rights/on/{subjectId} by subject, with tags and subject types", async () => {
    const object = await createUser();
    const subjects = [await createUser(), await createUser(), await createUser()].map((u) => u.sub);
    for (const s of subjects) await grant({ subject: s, object: object.sub, rights: ["change_password"], tags: ["a", "b"] });
    await grant({ subject: "svc-app", subjectType: "its", object: object.sub, rights: ["read_reports"], tags: ["feed"] });
    const first = await read(`/api/v4/rights/on/${object.sub}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await read(`/api/v4/rights/on/${object.sub}?limit=2&after=${first.body.next}`);
    expect(second.body.next).toBeUndefined();
    const items = [...first.body.items, ...second.body.items];
    expect(items).toEqual([
      { subject: "svc-app", subjectType: "its", rights: [{ name: "read_reports", tags: ["feed"] }] },
      ...[...subjects].sort().map((s) => ({ subject: s, subjectType: "user", rights: [{ name: "change_password", tags: ["a", "b"] }] })),
    ]);
    for (const q of ["?limit=0", "?limit=501", "?limit=x", "?after=%7B", "?other=1"]) expect((await read(`/api/v4/rights/on/${object.sub}${q}`)).status, q).toBe(400);
  });

  it("lets a user token with idp_user_rights read its own rights, and only its own", async () => {
    const me = await createUserWithPassword();
    const other = await createUser();
    await grant({ subject: me.sub, object: other.sub, rights: ["change_attrs"], tags: ["mine"] });
    await grant({ subject: other.sub, object: me.sub, rights: ["change_password"], tags: ["theirs"] });
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const { tokens } = await webTokens(browser, { scope: "openid idp_user_rights" }, { identifier: me.sub, password: me.password });
    const token = tokens.access_token;
    expect((await read("/api/v3/rights/of/current", token)).body).toEqual({ [other.sub]: { change_attrs: ["mine"] } });
    expect((await read(`/api/v3/rights/of/${me.sub}`, token)).body).toEqual({ [other.sub]: { change_attrs: ["mine"] } });
    expect((await read(`/api/v3/rights/on/${me.sub}`, token)).body).toEqual({ [other.sub]: ["change_password"] });
    expect((await read("/api/v4/rights/on/current", token)).body.items).toEqual([{ subject: other.sub, subjectType: "user", rights: [{ name: "change_password", tags: ["theirs"] }] }]);
    const foreign = await read(`/api/v3/rights/of/${other.sub}`, token);
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await read("/api/v3/rights/of/its/svc-app", token)).status).toBe(401);
    expect((await api("PUT", "/api/v3/rights", { token, body: { subject: me.sub, object: other.sub, rights: ["change_password"], tags: ["x"] } })).status).toBe(401);
  });
});
