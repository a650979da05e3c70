import { describe, expect, it } from "vitest";
import { changeToken as usersChangeToken, createUser, createUserWithPassword, unique, usersToken } from "../support/accounts.ts";
import { auditOf, change, changeToken, createGroup, readGroup, readToken, userToken } from "../support/groups.ts";
import { api, request } from "../support/http.ts";

const members = async (id: string) => (await readGroup(id)).body.members as string[];
const grpsOf = async (sub: string, suffix = "") => api("GET", `/api/v3/users/${sub}/grps${suffix}`, { token: await readToken() });

function inputError(r: { status: number; body: any }, positions: string[]) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body).toMatchObject({ type: "input_error", error: "wrong_values" });
  expect(r.body.errors.map((e: { pos: string }) => e.pos)).toEqual(positions);
}

describe("groups: /api/v3/groups", () => {
  it("creates, reads, replaces and deletes a group, answering in the Blitz shape", async () => {
    const id = unique("g-");
    const created = await change("POST", `/api/v3/groups/orgs/${id}`, { name: "Acme", size: 10, tags: ["a", "b"], founded: null });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(created.body).toEqual({ instanceId: expect.any(String), id, profile: "orgs", name: "Acme", size: 10, tags: ["a", "b"], members: [] });
    expect((await readGroup(id)).body).toEqual(created.body);
    expect((await readGroup(`${id}?expand=members`)).body).toEqual(created.body);

    const taken = await change("POST", `/api/v3/groups/orgs/${id}`, { name: "Other" });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ type: "process_error", error: "group_exists", desc: expect.any(String), params: { grpId: id } });
    expect((await change("POST", `/api/v3/groups/departments/${id}`, { title: "Other" })).status).toBe(409);

    const replaced = await change("PUT", `/api/v3/groups/orgs/${id}`, { name: "Acme 2", active: true, instanceId: created.body.instanceId });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ instanceId: expect.any(String), id, profile: "orgs", name: "Acme 2", active: true, members: [] });
    expect(replaced.body.instanceId).not.toBe(created.body.instanceId);
    const stale = await change("PUT", `/api/v3/groups/orgs/${id}`, { name: "Lost", instanceId: created.body.instanceId });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ type: "process_error", error: "stale_instance_id", params: { instanceId: created.body.instanceId } });
    // A read sent back as it is (id, profile, members of the read) replaces the attributes.
    const { members: _m, ...read } = (await readGroup(id)).body;
    expect((await change("PUT", `/api/v3/groups/orgs/${id}`, { ...read, name: "Acme 3" })).body.name).toBe("Acme 3");
    expect((await change("PUT", `/api/v3/groups/orgs/${id}`, { name: "No check" })).status).toBe(200);

    for (const [method, path] of [["PUT", `/api/v3/groups/departments/${id}`], ["PUT", `/api/v3/groups/orgs/${unique("g-")}`], ["DELETE", `/api/v3/groups/departments/${id}`]]) {
      const r = await change(method!, path!, method === "PUT" ? { title: "x" } : undefined);
      expect(r.status, path).toBe(404);
      expect(r.body).toMatchObject({ type: "not_found_error", error: "unknown_group" });
    }
    const noProfile = await change("POST", `/api/v3/groups/nope/${unique("g-")}`, { name: "x" });
    expect(noProfile.status).toBe(404);
    expect(noProfile.body).toMatchObject({ type: "not_found_error", error: "unknown_group_profile" });

    const deleted = await change("DELETE", `/api/v3/groups/orgs/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const gone = await readGroup(id);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ type: "not_found_error", error: "unknown_group" });
    expect((await change("DELETE", `/api/v3/groups/orgs/${id}`)).status).toBe(404);
  });

  it("has the fixture's imported profiles and groups", async () => {
    const r = await readGroup("org-fixture");
    expect(r.body).toMatchObject({ id: "org-fixture", profile: "orgs", name: "Рога и копыта", inn: "7701234567", tags: ["fixture"] });
    expect(r.body.members).toEqual(expect.arrayContaining(["ivanov", "petrov"]));
    expect((await readGroup("dep-fixture")).body).toMatchObject({ profile: "departments", title: "Accounting" });
  });

  it("checks attributes against the profile's schema, naming each bad one; unique values per profile", async () => {
    const path = () => `/api/v3/groups/orgs/${unique("g-")}`;
    inputError(await change("POST", path(), {}), ["name"]);
    inputError(await change("POST", path()), ["name"]);
    inputError(await change("POST", path(), { name: "x", bogus: 1 }), ["bogus"]);
    inputError(await change("POST", path(), { name: 5, size: "10", active: "yes", founded: "2020-13-01" }), ["name", "size", "active", "founded"]);
    inputError(await change("POST", path(), { name: "x", tags: [["nested"]] }), ["tags.0"]);
    inputError(await change("POST", path(), { name: "x", tags: ["x".repeat(33)] }), ["tags.0"]);
    inputError(await change("POST", path(), { name: "x".repeat(201) }), ["name"]);
    inputError(await change("POST", path(), { name: { a: { b: { c: 1 } } } }), ["name"]);
    inputError(await change("POST", path(), { name: "x", members: ["ivanov"] }), ["members"]);
    inputError(await change("POST", path(), { name: "x", id: "other", profile: "departments" }), ["id", "profile"]);
    inputError(await change("POST", path(), { name: "x", instanceId: 5 }), ["instanceId"]);

    const inn = `${Date.now()}`.slice(-10) + "Ab";
    const a = await createGroup("orgs", { name: "A", inn });
    inputError(await change("POST", path(), { name: "B", inn: inn.toLowerCase() }), ["inn"]);
    // Another profile may hold the value; the group itself keeps it through a replacement.
    expect((await change("PUT", `/api/v3/groups/orgs/${a.id}`, { name: "A2", inn })).status).toBe(200);
    const b = await createGroup("orgs", { name: "B" });
    inputError(await change("PUT", `/api/v3/groups/orgs/${b.id}`, { name: "B", inn }), ["inn"]);
    expect((await readGroup(b.id)).body.inn).toBeUndefined();
  });

  it("refuses malformed ids, profiles, queries and bodies with 4xx, changing nothing", async () => {
    const id = unique("g-");
    for (const bad of ["-x", "a%20b", "x".repeat(129), "%C3%BC", "a..b%2F"]) {
      const r = await change("POST", `/api/v3/groups/orgs/${bad}`, { name: "x" });
      expect(r.status, bad).toBeGreaterThanOrEqual(400);
      expect(r.status, bad).toBeLessThan(500);
    }
    for (const bad of ["Orgs", "1x", "x".repeat(70)]) expect((await change("POST", `/api/v3/groups/${bad}/${id}`, { name: "x" })).status, bad).toBe(400);
    for (const body of [[1, 2], "x", 5, null]) expect((await change("POST", `/api/v3/groups/orgs/${id}`, body)).status, JSON.stringify(body)).toBe(400);
    const deep = "[".repeat(40) + "]".repeat(40);
    const raw = (body: string, type = "application/json") =>
      changeToken().then((t) => request(`/api/v3/groups/orgs/${id}`, { method: "POST", headers: { authorization: `Bearer ${t}`, "content-type": type }, body }));
    expect((await raw(`{"name": ${deep}}`)).status).toBe(400);
    expect((await raw("{not json")).status).toBe(400);
    expect((await raw('{"name":"x"}', "text/plain")).status).toBe(415);
    expect((await raw(JSON.stringify({ name: "x", pad: "y".repeat(70_000) }))).status).toBe(413);
    expect((await raw('{"name":"a\\u0000b"}')).status).toBe(400);
    expect((await raw(JSON.stringify(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]))))).status).toBe(400);
    expect((await readGroup(`${id}?expand=bogus`)).status).toBe(400);
    expect((await readGroup(`${id}?other=1`)).status).toBe(400);
    expect((await readGroup(id)).status).toBe(404);
    const patch = await change("PATCH", `/api/v3/groups/orgs/${id}`, {});
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("POST, PUT, DELETE");
  });

  it("asks for the group scopes: read and change apart, no token is 401", async () => {
    const g = await createGroup();
    expect((await api("GET", `/api/v3/groups/${g.id}`)).status).toBe(401);
    const other = await api("GET", `/api/v3/groups/${g.id}`, { token: await usersToken() });
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await api("PUT", `/api/v3/groups/orgs/${g.id}`, { token: await readToken(), body: { name: "x" } })).status).toBe(401);
    expect((await api("GET", `/api/v3/groups/${g.id}`, { token: await changeToken() })).status).toBe(401);
    expect((await readGroup(g.id)).body.name).toBe("Acme");
  });
});

describe("group members", () => {
  it("adds (again: no change), adds lists all or nothing, removes; unknown accounts are 400 unknown_user", async () => {
    const g = await createGroup();
    const [a, b, c] = [await createUser(), await createUser(), await createUser()];
    const base = `/api/v3/groups/orgs/${g.id}/members`;
    expect((await change("POST", `${base}/${a.sub}`)).status).toBe(204);
    expect((await change("POST", `${base}/${a.sub}`)).status).toBe(204);
    expect(await members(g.id)).toEqual([a.sub]);

    const unknown = await change("POST", base, { members: [b.sub, "nobody-here", c.sub] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ type: "process_error", error: "unknown_user", desc: expect.any(String), params: { userId: "nobody-here" } });
    expect(await members(g.id)).toEqual([a.sub]);
    expect((await change("POST", base, { members: [c.sub, b.sub, a.sub, b.sub] })).status).toBe(204);
    expect(await members(g.id)).toEqual([a.sub, b.sub, c.sub].sort());
    // Membership leaves the version of the attributes alone.
    expect((await readGroup(g.id)).body.instanceId).toBe(g.instanceId);

    expect((await change("DELETE", `${base}/${b.sub}`)).status).toBe(204);
    expect((await change("DELETE", `${base}/${b.sub}`)).status).toBe(204);
    expect((await change("DELETE", `${base}/nobody-here`)).body).toMatchObject({ type: "process_error", error: "unknown_user", params: { userId: "nobody-here" } });
    expect(await members(g.id)).toEqual([a.sub, c.sub].sort());

    for (const path of [`/api/v3/groups/departments/${g.id}/members/${a.sub}`, `/api/v3/groups/orgs/${unique("g-")}/members/${a.sub}`]) {
      expect((await change("POST", path)).status, path).toBe(404);
      expect((await change("DELETE", path)).status, path).toBe(404);
    }
    for (const body of [{}, { members: [] }, { members: "x" }, { members: [1] }, { members: [""] }, { members: Array.from({ length: 1001 }, (_, i) => `u${i}`) }, { members: [a.sub], x: 1 }]) {
      expect((await change("POST", base, body)).status, JSON.stringify(body).slice(0, 50)).toBe(400);
    }

    const added = await auditOf(a.sub, "group.member_added");
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ type: "group.member_added", clientId: "groups-app", params: { group: g.id, profile: "orgs", member: a.sub } });
    const removed = await auditOf(b.sub, "group.member_removed");
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ clientId: "groups-app", params: { group: g.id, member: b.sub } });
  });

  it("lists an account's groups, of every profile or one, with members only on expand", async () => {
    const a = await createUser();
    const [g1, g2] = [await createGroup(), await createGroup("departments", { title: "Sales" })];
    await change("POST", `/api/v3/groups/orgs/${g1.id}/members/${a.sub}`);
    await change("POST", `/api/v3/groups/departments/${g2.id}/members/${a.sub}`);
    const all = await grpsOf(a.sub);
    expect(all.status).toBe(200);
    expect(all.body).toEqual(
      [
        { instanceId: g1.instanceId, id: g1.id, profile: "orgs", name: "Acme" },
        { instanceId: g2.instanceId, id: g2.id, profile: "departments", title: "Sales" },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect((await grpsOf(a.sub, "?expand=members")).body.map((g: { members: string[] }) => g.members)).toEqual([[a.sub], [a.sub]]);
    expect((await grpsOf(a.sub, "/orgs")).body.map((g: { id: string }) => g.id)).toEqual([g1.id]);
    expect((await grpsOf(a.sub, "/departments?expand=members")).body).toEqual([{ instanceId: g2.instanceId, id: g2.id, profile: "departments", title: "Sales", members: [a.sub] }]);
    const noProfile = await grpsOf(a.sub, "/nope");
    expect(noProfile.status).toBe(404);
    expect(noProfile.body).toMatchObject({ error: "unknown_group_profile" });
    expect((await grpsOf("nobody-here")).status).toBe(404);
    expect((await grpsOf(a.sub, "?expand=all")).status).toBe(400);
    expect((await grpsOf((await createUser()).sub)).body).toEqual([]);

    // A deleted group leaves its members' lists; a deleted account leaves its groups.
    expect((await change("DELETE", `/api/v3/groups/departments/${g2.id}`)).status).toBe(204);
    expect((await grpsOf(a.sub)).body.map((g: { id: string }) => g.id)).toEqual([g1.id]);
    const b = await createUser();
    await change("POST", `/api/v3/groups/orgs/${g1.id}/members/${b.sub}`);
    expect(await members(g1.id)).toContain(b.sub);
    expect((await api("DELETE", `/api/v3/users/${b.instanceId}`, { token: await usersChangeToken() })).status).toBe(204);
    expect(await members(g1.id)).toEqual([a.sub]);
  });

  it("ends parallel creations of one id with one 201, parallel adds of one member with one membership and one event", async () => {
    const id = unique("g-");
    const creates = await Promise.all(Array.from({ length: 8 }, (_, i) => change("POST", `/api/v3/groups/orgs/${id}`, { name: `N${i}` })));
    expect(creates.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = creates.find((r) => r.status === 201)!.body;
    expect((await readGroup(id)).body).toEqual(winner);

    const puts = await Promise.all(Array.from({ length: 5 }, (_, i) => change("PUT", `/api/v3/groups/orgs/${id}`, { name: `P${i}`, instanceId: winner.instanceId })));
    expect(puts.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await readGroup(id)).body.name).toBe(puts.find((r) => r.status === 200)!.body.name);

    const a = await createUser();
    const adds = await Promise.all(Array.from({ length: 8 }, () => change("POST", `/api/v3/groups/orgs/${id}/members/${a.sub}`)));
    expect(adds.map((r) => r.status)).toEqual(Array(8).fill(204));
    expect(await members(id)).toEqual([a.sub]);
    expect(await auditOf(a.sub, "group.member_added")).toHaveLength(1);

    const others = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const lists = [others.slice(0, 4), others.slice(2, 6).reverse(), others.slice(1, 5).reverse()].map((l) => l.map((u) => u.sub));
    const bulk = await Promise.all(lists.map((l) => change("POST", `/api/v3/groups/orgs/${id}/members`, { members: l })));
    expect(bulk.map((r) => r.status)).toEqual([204, 204, 204]);
    expect(await members(id)).toEqual([a.sub, ...others.map((u) => u.sub)].sort());
  });
});

describe("groups with a user token (idp_api_groups, idp_api_groups_chg)", () => {
  it("reads its own groups only, and may only leave a group itself", async () => {
    const me = await createUserWithPassword();
    const other = await createUser();
    const [mine, theirs] = [await createGroup(), await createGroup()];
    await change("POST", `/api/v3/groups/orgs/${mine.id}/members`, { members: [me.sub, other.sub] });
    await change("POST", `/api/v3/groups/orgs/${theirs.id}/members/${other.sub}`);
    const token = await userToken(me, "idp_api_groups idp_api_groups_chg");
    const as = (method: string, path: string, body?: unknown) => api(method, path, { token, body, headers: { "x-forwarded-for": "203.0.113.9", "user-agent": "groups-test" } });

    expect((await as("GET", `/api/v3/groups/${mine.id}`)).body).toMatchObject({ id: mine.id, members: [me.sub, other.sub].sort() });
    expect((await as("GET", `/api/v3/groups/${theirs.id}`)).status).toBe(404);
    expect((await as("GET", "/api/v3/users/current/grps")).body.map((g: { id: string }) => g.id)).toEqual([mine.id]);
    expect((await as("GET", `/api/v3/users/${me.sub}/grps/orgs`)).body.map((g: { id: string }) => g.id)).toEqual([mine.id]);
    expect((await as("GET", `/api/v3/users/${other.sub}/grps`)).status).toBe(401);

    expect((await as("POST", `/api/v3/groups/orgs/${theirs.id}/members/${me.sub}`)).status).toBe(401);
    expect((await as("PUT", `/api/v3/groups/orgs/${mine.id}`, { name: "mine now" })).status).toBe(401);
    expect((await as("DELETE", `/api/v3/groups/orgs/${mine.id}`)).status).toBe(401);
    expect((await as("DELETE", `/api/v3/groups/orgs/${mine.id}/members/${other.sub}`)).status).toBe(401);
    expect((await as("DELETE", `/api/v3/groups/orgs/${theirs.id}/members/current`)).status).toBe(404);
    expect(await members(mine.id)).toEqual([me.sub, other.sub].sort());

    expect((await as("DELETE", `/api/v3/groups/orgs/${mine.id}/members/current`)).status).toBe(204);
    expect(await members(mine.id)).toEqual([other.sub]);
    expect((await as("GET", `/api/v3/groups/${mine.id}`)).status).toBe(404);
    expect((await as("GET", "/api/v3/users/current/grps")).body).toEqual([]);
    const left = await auditOf(me.sub, "group.member_removed");
    expect(left[0]).toMatchObject({ clientId: "rp-web", params: { group: mine.id, member: me.sub, actingUser: me.sub } });

    const readOnly = await userToken(me, "idp_api_groups");
    expect((await api("DELETE", `/api/v3/groups/orgs/${theirs.id}/members/current`, { token: readOnly })).status).toBe(401);
  });
});
