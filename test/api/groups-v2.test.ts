import { describe, expect, it } from "vitest";
import { createUser, unique } from "../support/accounts.ts";
import { readGroup, readToken } from "../support/groups.ts";
import { api, request } from "../support/http.ts";

const BASIC: [string, string] = ["groups-app", "groups-rest-password"];
const v2 = (method: string, path: string, body?: unknown, basic = BASIC) => api(method, `/api/v2/grps${path}`, { basic, body });

function v2Error(r: { status: number; body: any }, status: number, code: string, params?: Record<string, unknown>) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.errors[0]).toMatchObject({ code, desc: expect.any(String), ...(params ? { params } : {}) });
}

describe("groups v2 (deprecated): /api/v2/grps", () => {
  it("creates, reads, changes and deletes groups and members over the same data as v3", async () => {
    const id = unique("g-");
    const created = await v2("POST", "", { id, profile: "orgs", attributes: { name: "Acme", size: 3 } });
    expect(created.status).toBe(201);
    expect(created.headers.get("deprecation")).toBe("true");
    expect(created.body).toEqual({ id, profile: "orgs", instanceId: expect.any(String), attributes: { name: "Acme", size: 3 }, members: [] });
    expect((await v2("GET", `/${id}`)).body).toEqual({ id, profile: "orgs", instanceId: created.body.instanceId, attributes: { name: "Acme", size: 3 } });
    v2Error(await v2("POST", "", { id, profile: "departments", attributes: { title: "x" } }), 409, "group_exists", { grpId: id });

    const a = await createUser();
    expect((await v2("PUT", `/${id}/members/${a.sub}`)).status).toBe(204);
    expect((await v2("PUT", `/${id}/members/${a.sub}`)).status).toBe(204);
    expect((await v2("GET", `/${id}?expand=members`)).body.members).toEqual([a.sub]);
    expect((await readGroup(id)).body).toMatchObject({ id, name: "Acme", members: [a.sub] });
    v2Error(await v2("PUT", `/${id}/members/nobody-here`), 400, "validation_error", { userId: "nobody-here", field: "subjectId", reason: "unknown_user" });

    const changed = await v2("PUT", `/${id}`, { attributes: { name: "Acme 2" }, instanceId: created.body.instanceId });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ attributes: { name: "Acme 2" }, members: [a.sub] });
    v2Error(await v2("PUT", `/${id}`, { attributes: { name: "Lost" }, instanceId: created.body.instanceId }), 409, "stale_instance_id");
    v2Error(await v2("PUT", `/${id}`, { attributes: { name: "x", bogus: 1 } }), 400, "validation_error", { field: "attributes.bogus", reason: "wrong_value" });
    v2Error(await v2("PUT", `/${id}`, { attributes: {} }), 400, "validation_error", { field: "attributes.name" });
    v2Error(await v2("PUT", `/${id}`, { name: "flat" }), 400, "validation_error");
    v2Error(await v2("POST", "", { id: "bad id", profile: "orgs" }), 400, "validation_error", { field: "id" });
    v2Error(await v2("POST", "", { id: unique("g-"), profile: "nope" }), 404, "unknown_group_profile");

    const listed = await v2("GET", "?profile=orgs&limit=1000&expand=members");
    expect(listed.status).toBe(200);
    expect(listed.body.find((g: { id: string }) => g.id === id)).toEqual({ ...changed.body });
    const page = await v2("GET", `?limit=1&after=${id}`);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].id > id).toBe(true);
    v2Error(await v2("GET", "?profile=nope"), 404, "unknown_group_profile");
    for (const q of ["?limit=0", "?limit=1001", "?expand=x", "?x=1"]) expect((await v2("GET", q)).status, q).toBe(400);

    expect((await v2("DELETE", `/${id}/members/${a.sub}`)).status).toBe(204);
    expect((await v2("GET", `/${id}?expand=members`)).body.members).toEqual([]);
    expect((await v2("DELETE", `/${id}`)).status).toBe(204);
    v2Error(await v2("GET", `/${id}`), 404, "unknown_group", { grpId: id });
    v2Error(await v2("DELETE", `/${id}`), 404, "unknown_group");
  });

  it("takes HTTP Basic of a client holding idp_groups, nothing else", async () => {
    expect((await api("GET", "/api/v2/grps/org-fixture")).status).toBe(401);
    expect((await v2("GET", "/org-fixture", undefined, ["groups-app", "wrong"])).status).toBe(401);
    const noScope = await v2("GET", "/org-fixture", undefined, ["svc-app", "rest-password-123"]);
    // Authenticated, but without the scope: the v2 access_denied, and no Bearer challenge on a Basic operation.
    expect(noScope.status).toBe(403);
    expect(noScope.body.errors[0]).toMatchObject({ code: "access_denied", params: { scopes: ["idp_groups"] } });
    expect(noScope.headers.get("www-authenticate")).toBeNull();
    expect((await api("GET", "/api/v2/grps/org-fixture", { token: await readToken() })).status).toBe(401);
    expect((await v2("GET", "/org-fixture")).body).toMatchObject({ id: "org-fixture", profile: "orgs" });
    expect((await v2("PATCH", "/org-fixture", {})).status).toBe(405);
    // The document (and so the reference page rendered from it) names the scope a Basic client needs.
    const doc = (await request("/api/openapi.json")).body;
    expect(doc.paths["/api/v2/grps/{id}"].get).toMatchObject({ deprecated: true, "x-scopes": { user: [], system: ["idp_groups"] } });
  });
});
