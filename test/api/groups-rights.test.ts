import { describe, expect, it } from "vitest";
import { createUser } from "../support/accounts.ts";
import { change, createGroup } from "../support/groups.ts";
import { api, systemToken } from "../support/http.ts";

const rightsToken = () => systemToken("rights-app", "idp_rights_full_access");
const grant = async (body: unknown) => api("PUT", "/api/v3/rights", { token: await rightsToken(), body });
const revoke = async (body: unknown) => api("DELETE", "/api/v3/rights", { token: await rightsToken(), body });
const read = async (path: string) => api("GET", path, { token: await rightsToken() });

function processError(r: { status: number; body: unknown }, error: string, params: Record<string, unknown>) {
  expect(r.status).toBe(400);
  expect(r.body).toEqual({ type: "process_error", error, desc: expect.any(String), params });
}

describe("rights on groups: objectType grps", () => {
  it("grants and lists rights on a group of a profile, and refuses another profile or an unknown group", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const g = await createGroup();
    const record = { subject: a.sub, object: g.id, objectType: "grps", objectExt: "orgs", rights: ["read_reports"], tags: ["t1"] };
    expect((await grant(record)).status).toBe(204);
    // objectExt may be left out: the group's own profile is taken.
    expect((await grant({ ...record, subject: b.sub, objectExt: undefined, tags: ["t2"] })).status).toBe(204);
    expect((await read(`/api/v3/rights/on/grps/${g.id}?objectExt=orgs`)).body).toEqual({ [a.sub]: ["read_reports"], [b.sub]: ["read_reports"] });
    expect((await read(`/api/v3/rights/on/grps/${g.id}`)).body).toEqual({ [a.sub]: ["read_reports"], [b.sub]: ["read_reports"] });
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ [`grps|${g.id}|orgs`]: { read_reports: ["t1"] } });
    expect((await read(`/api/v3/rights/of/${b.sub}`)).body).toEqual({ [`grps|${g.id}|orgs`]: { read_reports: ["t2"] } });

    processError(await read(`/api/v3/rights/on/grps/${g.id}?objectExt=departments`), "unknown_group", { grpId: g.id, profile: "departments" });
    processError(await grant({ ...record, objectExt: "departments" }), "unknown_group", { grpId: g.id, profile: "departments" });
    processError(await grant({ ...record, object: "no-such-group" }), "unknown_group", { grpId: "no-such-group", profile: "orgs" });
    processError(await read("/api/v3/rights/on/grps/no-such-group"), "unknown_group", { grpId: "no-such-group" });
    processError(await grant({ ...record, rights: ["manage_app"] }), "right_kind_not_allowed", { right: "manage_app", objectKind: "group" });

    expect((await revoke({ ...record, tags: ["t1"] })).status).toBe(204);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
  });

  it("drops the rights on a deleted group with it, from every listing", async () => {
    const a = await createUser();
    const g = await createGroup("departments", { title: "Doomed" });
    await change("POST", `/api/v3/groups/departments/${g.id}/members/${a.sub}`);
    expect((await grant({ subject: a.sub, object: g.id, objectType: "grps", rights: ["read_reports"], tags: ["x"] })).status).toBe(204);
    expect((await grant({ subject: "svc-app", subjectType: "its", object: g.id, objectType: "grps", rights: ["read_reports"], tags: ["y"] })).status).toBe(204);
    expect(Object.keys((await read("/api/v3/rights/of/its/svc-app")).body)).toContain(`grps|${g.id}|departments`);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({ [`grps|${g.id}|departments`]: { read_reports: ["x"] } });

    expect((await change("DELETE", `/api/v3/groups/departments/${g.id}`)).status).toBe(204);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
    expect(Object.keys((await read("/api/v3/rights/of/its/svc-app")).body)).not.toContain(`grps|${g.id}|departments`);
    processError(await read(`/api/v3/rights/on/grps/${g.id}`), "unknown_group", { grpId: g.id });
    // A new group of the same id starts without them.
    await change("POST", `/api/v3/groups/departments/${g.id}`, { title: "Reborn" });
    expect((await read(`/api/v3/rights/on/grps/${g.id}`)).body).toEqual({});
  });

  it("never leaves a grant on a group deleted while it was granted", async () => {
    const a = await createUser();
    const g = await createGroup();
    const record = { subject: a.sub, object: g.id, objectType: "grps", rights: ["read_reports"], tags: ["race"] };
    const [granted, deleted] = await Promise.all([grant(record), change("DELETE", `/api/v3/groups/orgs/${g.id}`)]);
    expect(deleted.status).toBe(204);
    expect([204, 400]).toContain(granted.status);
    expect((await read(`/api/v3/rights/of/${a.sub}`)).body).toEqual({});
  });
});
