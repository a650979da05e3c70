import { describe, expect, it } from "vitest";
import { createUser, createUserWithPassword, readUser } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

const CHANGE = "/api/v2/users/rights/change";
const rightsToken = () => systemToken("rights-app", "idp_rights_full_access");
const rmToken = () => systemToken("rights-app", "idp_rm_rights");
const rightsOf = async (sub: string) => (await api("GET", `/api/v3/rights/of/${sub}`, { token: await rightsToken() })).body;
const events = async (sub: string, type: string) => (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events;

/** A user token of a fresh master account, with the scopes asked. */
async function masterToken(scope: string) {
  const me = await createUserWithPassword();
  const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: `openid ${scope}` }, { identifier: me.sub, password: me.password });
  return { ...me, token: tokens.access_token };
}

/** What an administrator grants (PUT /api/v3/rights): a user token only adds tags to rights held. */
async function adminGrant(subject: string, object: string, rights: string[], tags = ["granted-by-admin"]) {
  expect((await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: { subject, object, rights, tags } })).status).toBe(204);
}

function v2Error(r: { status: number; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ errors: [expect.objectContaining({ code, desc: expect.any(String), params: expect.any(Object) })] });
}

describe("POST /api/v2/users/rights/change", () => {
  it("lets a master tag and revoke its own rights on slaves, all in one request, with security events", async () => {
    const master = await masterToken("idp_user_rights");
    const [s1, s2] = [await createUser(), await createUser()];
    await adminGrant(master.sub, s1.sub, ["change_password", "change_attrs"], ["family"]);
    await adminGrant(master.sub, s2.sub, ["change_password"], ["family"]);
    const body = {
      update: [
        { subject: master.sub, object: s1.sub, rights: ["change_password", "change_attrs"], tags: ["family"] },
        { subject: master.sub, object: s2.sub, rights: ["change_password"], tags: ["family", "school"] },
      ],
      delete: [],
    };
    const r = await api("POST", CHANGE, { token: master.token, body });
    expect(r.status).toBe(204);
    expect(await rightsOf(master.sub)).toEqual({ [s1.sub]: { change_password: ["family"], change_attrs: ["family"] }, [s2.sub]: { change_password: ["family", "school"] } });
    const granted = await events(master.sub, "rights.granted");
    // Two by the administrator, two by the master's own request.
    expect(granted).toHaveLength(4);
    expect(granted.filter((e: { clientId: string }) => e.clientId === "rp-web")[0]).toMatchObject({ params: { subject: master.sub, actingUser: master.sub } });

    const del = await api("POST", CHANGE, { token: master.token, body: { update: [], delete: [{ subject: master.sub, object: s2.sub, rights: ["change_password"], tags: ["school"] }, { subject: master.sub, object: s1.sub, rights: ["change_attrs"], tags: ["family"] }] } });
    expect(del.status).toBe(204);
    expect(await rightsOf(master.sub)).toEqual({ [s1.sub]: { change_password: ["family"] }, [s2.sub]: { change_password: ["family"] } });
    expect(await events(master.sub, "rights.revoked")).toHaveLength(2);
  });

  it("refuses a user token acting for another subject, and a system token granting (access_denied), changing nothing", async () => {
    const master = await masterToken("idp_api_user_rights");
    const [other, slave] = [await createUser(), await createUser()];
    const foreign = await api("POST", CHANGE, {
      token: master.token,
      body: { update: [{ subject: master.sub, object: slave.sub, rights: ["change_password"], tags: ["a"] }, { subject: other.sub, object: slave.sub, rights: ["change_password"], tags: ["a"] }], delete: [] },
    });
    v2Error(foreign, 403, "access_denied");
    expect(await rightsOf(master.sub)).toEqual({});
    expect(await rightsOf(other.sub)).toEqual({});
    const sysGrant = await api("POST", CHANGE, { token: await rmToken(), body: { update: [{ subject: other.sub, object: slave.sub, rights: ["change_password"], tags: ["a"] }], delete: [] } });
    v2Error(sysGrant, 403, "access_denied");
    expect(await rightsOf(other.sub)).toEqual({});
    const noScope = await api("POST", CHANGE, { token: await rightsToken(), body: { update: [], delete: [] } });
    expect(noScope.status).toBe(401);
    expect(noScope.body.errors[0].code).toBe("bad_access_token");
  });

  it("refuses a user token giving itself a right it does not hold (change_password on anyone would take the account over)", async () => {
    const master = await masterToken("idp_user_rights");
    const [victim, slave] = [await createUser(), await createUser()];
    await adminGrant(master.sub, slave.sub, ["change_attrs"]);
    const r = await api("POST", CHANGE, {
      token: master.token,
      body: { update: [{ subject: master.sub, object: slave.sub, rights: ["change_attrs"], tags: ["more"] }, { subject: master.sub, object: victim.sub, rights: ["change_password"], tags: ["mine"] }], delete: [] },
    });
    v2Error(r, 403, "access_denied");
    expect(r.body.errors[0].params).toMatchObject({ field: "update[1]", right: "change_password" });
    // All or nothing: the allowed first item did not happen either.
    expect(await rightsOf(master.sub)).toEqual({ [slave.sub]: { change_attrs: ["granted-by-admin"] } });
  });

  it("lets a system token with idp_rm_rights revoke for any users", async () => {
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: { subject: a.sub, object: b.sub, rights: ["change_password"], tags: ["x"] } });
    await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: { subject: c.sub, object: b.sub, rights: ["change_attrs"], tags: ["y"] } });
    const r = await api("POST", CHANGE, { token: await rmToken(), body: { update: [], delete: [{ subject: a.sub, object: b.sub, rights: ["change_password"], tags: ["x"] }, { subject: c.sub, object: b.sub, rights: ["change_attrs"], tags: ["y"] }] } });
    expect(r.status).toBe(204);
    expect(await rightsOf(a.sub)).toEqual({});
    expect(await rightsOf(c.sub)).toEqual({});
  });

  it("ends parallel requests naming the same rights in opposite orders as a serial order would (no deadlock, no 500)", async () => {
    const master = await masterToken("idp_user_rights");
    const [s1, s2, s3] = [await createUser(), await createUser(), await createUser()];
    for (const s of [s1, s2, s3]) await adminGrant(master.sub, s.sub, ["change_password", "change_attrs"], ["common"]);
    const item = (object: string, tag: string) => ({ subject: master.sub, object, rights: ["change_password", "change_attrs"], tags: [tag, "common"] });
    const forward = { update: [item(s1.sub, "a"), item(s2.sub, "a"), item(s3.sub, "a")], delete: [item(s3.sub, "b")] };
    const backward = { update: [item(s3.sub, "b"), item(s2.sub, "b"), item(s1.sub, "b")], delete: [item(s1.sub, "a")] };
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => api("POST", CHANGE, { token: master.token, body: i % 2 ? backward : forward })));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 204));
    const held = await rightsOf(master.sub);
    // Whatever the order, each slave holds both rights with "common", and s1 or s3 lost just the tag the last delete named.
    for (const s of [s1, s2, s3]) for (const right of ["change_password", "change_attrs"]) expect(held[s.sub][right]).toContain("common");
    expect(held[s2.sub]).toEqual({ change_attrs: ["a", "b", "common"], change_password: ["a", "b", "common"] });
  });

  it("answers bad input with validation_error and changes nothing (all or nothing)", async () => {
    const master = await masterToken("idp_user_rights");
    const slave = await createUser();
    await adminGrant(master.sub, slave.sub, ["change_password"]);
    const good = { subject: master.sub, object: slave.sub, rights: ["change_password"], tags: ["t"] };
    const bodies: unknown[] = [
      {},
      { update: [good] },
      { update: "x", delete: [] },
      { update: [{ ...good, rights: "change_password" }], delete: [] },
      { update: [{ ...good, object: "" }], delete: [] },
      { update: [{ ...good, object: 5 }], delete: [] },
      { update: [{ ...good, tags: [] }], delete: [] },
      { update: [{ ...good, extra: 1 }], delete: [] },
      { update: [good, { ...good, object: "no-such-user-x" }], delete: [] },
      { update: [good, { ...good, rights: ["no_such_right"] }], delete: [] },
      { update: Array.from({ length: 51 }, () => good), delete: [] },
      [],
      null,
    ];
    for (const body of bodies) {
      const r = await api("POST", CHANGE, { token: master.token, body });
      expect(r.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(r.body.errors.length).toBeGreaterThan(0);
      for (const e of r.body.errors) expect(e).toMatchObject({ code: "validation_error", desc: expect.any(String), params: expect.any(Object) });
    }
    const unknown = await api("POST", CHANGE, { token: master.token, body: { update: [good, { ...good, object: "no-such-user-x" }], delete: [] } });
    expect(unknown.body.errors[0].params).toMatchObject({ field: "update[1]", reason: "unknown_user" });
    const huge = await api("POST", CHANGE, { token: master.token, body: { update: [{ ...good, tags: ["x".repeat(70_000)] }], delete: [] } });
    expect(huge.status).toBe(413);
    expect(huge.body.errors[0].code).toBe("validation_error");
    expect(await rightsOf(master.sub)).toEqual({ [slave.sub]: { change_password: ["granted-by-admin"] } });
    expect(await events(master.sub, "rights.granted")).toHaveLength(1);
  });
});

describe("POST /api/v2/users/{subject}/password", () => {
  it("lets a master holding change_password set the slave's password; the slave's tokens end; a revoke stops it at once", async () => {
    const master = await masterToken("idp_change_password idp_user_rights");
    const slave = await createUserWithPassword();
    const slaveTokens = (await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: "openid idp_user_rights" }, { identifier: slave.sub, password: slave.password })).tokens;
    const path = `/api/v2/users/${slave.sub}/password`;

    v2Error(await api("POST", path, { token: master.token, body: { value: "new battery staple 42" } }), 403, "access_denied");
    const grant = { subject: master.sub, object: slave.sub, rights: ["change_password"], tags: ["family"] };
    await adminGrant(master.sub, slave.sub, ["change_password"], ["family"]);

    const r = await api("POST", path, { token: master.token, body: { value: "new battery staple 42" } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ subject: slave.sub });
    expect(r.text).not.toContain("staple");
    expect((await api("GET", "/api/v3/rights/of/current", { token: slaveTokens.access_token })).status).toBe(401);
    await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: "openid" }, { identifier: slave.sub, password: "new battery staple 42" });
    const changed = await events(slave.sub, "user.password_changed");
    expect(changed[0]).toMatchObject({ params: { master: master.sub } });

    expect((await api("POST", CHANGE, { token: master.token, body: { update: [], delete: [grant] } })).status).toBe(204);
    v2Error(await api("POST", path, { token: master.token, body: { value: "another battery 43" } }), 403, "access_denied");
  });

  it("applies the password policy, refuses bad input, unknown accounts and tokens without the scope", async () => {
    const master = await masterToken("idp_change_password");
    const slave = await createUserWithPassword();
    await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: { subject: master.sub, object: slave.sub, rights: ["change_password"], tags: ["t"] } });
    const path = `/api/v2/users/${slave.sub}/password`;
    const short = await api("POST", path, { token: master.token, body: { value: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ code: "password_policy_violated", desc: expect.stringContaining("15"), params: { rule: "to_short", low: 15, field: "value" } }]);
    for (const body of [{}, { value: 5 }, { value: "" }, { value: "long enough pass", extra: 1 }, [], null]) {
      const r = await api("POST", path, { token: master.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].code).toBe("validation_error");
    }
    const huge = await api("POST", path, { token: master.token, body: { value: "x".repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body.errors[0].code).toBe("validation_error");
    // The old password still works: nothing changed.
    await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: "openid" }, { identifier: slave.sub, password: slave.password });
    v2Error(await api("POST", "/api/v2/users/no-such-user-x/password", { token: master.token, body: { value: "new battery staple 42" } }), 403, "access_denied");
    const system = await api("POST", path, { token: await rmToken(), body: { value: "new battery staple 42" } });
    expect(system.status).toBe(401);
    expect(system.body.errors[0].code).toBe("bad_access_token");
  });
});

describe("POST /api/v3/users/{instanceId} by a master holding change_attrs", () => {
  it("changes the slave's attributes with the master's own token, and stops when the right is revoked", async () => {
    const master = await masterToken("idp_api_user_chg");
    const slave = await createUser();
    const body = { family_name: "Младший" };
    const refused = await api("POST", `/api/v3/users/${slave.instanceId}`, { token: master.token, body });
    expect(refused.status).toBe(401);
    const grant = { subject: master.sub, object: slave.sub, rights: ["change_attrs"], tags: ["family"] };
    await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: grant });
    const ok = await api("POST", `/api/v3/users/${slave.instanceId}`, { token: master.token, body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ sub: slave.sub, family_name: "Младший" });
    expect((await readUser(slave.sub)).body.family_name).toBe("Младший");
    // change_password alone does not let a master change attributes.
    await api("DELETE", "/api/v3/rights", { token: await rightsToken(), body: grant });
    await api("PUT", "/api/v3/rights", { token: await rightsToken(), body: { ...grant, rights: ["change_password"] } });
    const after = await api("POST", `/api/v3/users/${ok.body.meta.instanceId}`, { token: master.token, body: { family_name: "Снова" } });
    expect(after.status).toBe(401);
    expect((await readUser(slave.sub)).body.family_name).toBe("Младший");
  });
});
