import { describe, expect, it } from "vitest";
import { createUser, createUserWithPassword, unique } from "../support/accounts.ts";
import { change, changeToken, readToken, userToken } from "../support/groups.ts";
import { api, request, systemToken, type TResult } from "../support/http.ts";
import { encodeRqlValue, HOSTILE } from "../support/rql.ts";

const q = (rql: string) => `rql=${encodeURIComponent(rql)}`;
const get = async (path: string, query: string, token?: string) => api("GET", `${path}?${query}`, { token: token ?? (await readToken()) });
const ids = (r: TResult) => {
  expect(r.status, r.text).toBe(200);
  return (r.body as { id: string }[]).map((g) => g.id);
};

function rqlError(r: TResult, position: unknown = expect.any(Number)) {
  expect(r.status, r.text).toBe(400);
  expect(r.body).toMatchObject({ type: "input_error", error: "wrong_values" });
  expect(r.body.errors).toEqual([{ type: "input_error", error: "wrong_value", desc: expect.any(String), pos: "rql", params: { position } }]);
}

/** Groups that only this test's marker tag finds: orgs p-1…p-5 (size 10…50) and one department. */
async function seed() {
  const tag = unique("t");
  const prefix = unique("s-");
  const orgs = [1, 2, 3, 4, 5].map((i) => ({ id: `${prefix}-${i}`, name: i === 3 ? "Рога и копыта ĳ 😀" : `Acme ${i}`, size: i * 10, active: i % 2 === 1, tags: [tag, `k${i}`] }));
  for (const { id, ...attrs } of orgs) expect((await change("POST", `/api/v3/groups/orgs/${id}`, attrs)).status).toBe(201);
  expect((await change("POST", `/api/v3/groups/departments/${prefix}-d`, { title: "Acme 1" })).status).toBe(201);
  return { tag, prefix, orgs: orgs.map((o) => o.id) };
}

describe("GET /api/v3/groups/{profile}/search and /api/v3/groups/search", () => {
  it("filters by the profile's typed attributes, sorts stably, pages with X-Has-More and expands members only when asked", async () => {
    const { tag, prefix, orgs } = await seed();
    const mine = `eq(tags,${tag})`;
    const path = "/api/v3/groups/orgs/search";
    const all = await get(path, q(mine));
    expect(ids(all)).toEqual(orgs);
    expect(all.headers.get("x-has-more")).toBe("false");
    expect(all.headers.get("cache-control")).toBe("no-store");
    expect(all.body[0]).toEqual({ instanceId: expect.any(String), id: orgs[0], profile: "orgs", name: "Acme 1", size: 10, active: true, tags: [tag, "k1"] });

    expect(ids(await get(path, q(`${mine}&eq(name,Acme 2)`)))).toEqual([orgs[1]]);
    expect(ids(await get(path, q(`${mine}&eq(name,${encodeRqlValue("Рога и копыта ĳ 😀")})`)))).toEqual([orgs[2]]);
    expect(ids(await get(path, q(`${mine}&like(name,ACME*)&gt(size,20)`)))).toEqual([orgs[3], orgs[4]]);
    expect(ids(await get(path, q(`${mine}&eq(active,true)&sort(-size)`)))).toEqual([orgs[4], orgs[2], orgs[0]]);
    expect(ids(await get(path, q(`${mine}&or(in(name,(Acme 1,Acme 5)),eq(tags,k4))`)))).toEqual([orgs[0], orgs[3], orgs[4]]);
    expect(ids(await get(path, q(`${mine}&ne(tags,k1)&le(size,number:30)`)))).toEqual([orgs[1], orgs[2]]);
    expect(ids(await get(path, q(`${mine}&eq(founded,null)&eq(profile,orgs)&like(id,${prefix}*)`)))).toEqual(orgs);
    // Equal sort keys fall back to id order: pages do not repeat or skip rows.
    const first = await get(path, q(`${mine}&sort(+active)&limit(2)`));
    expect(first.headers.get("x-has-more")).toBe("true");
    const second = await get(path, q(`${mine}&sort(+active)&limit(2,2)`));
    const last = await get(path, q(`${mine}&sort(+active)&limit(2,4)`));
    expect(last.headers.get("x-has-more")).toBe("false");
    expect([...ids(first), ...ids(second), ...ids(last)]).toEqual([orgs[1], orgs[3], orgs[0], orgs[2], orgs[4]]);

    const a = await createUser();
    expect((await change("POST", `/api/v3/groups/orgs/${orgs[0]}/members/${a.sub}`)).status).toBe(204);
    const expanded = await get(path, `${q(`${mine}&limit(2)`)}&expand=members`);
    expect(expanded.body.map((g: { members: string[] }) => g.members)).toEqual([[a.sub], []]);
    expect((await get(path, q(mine))).body.every((g: object) => !("members" in g))).toBe(true);
    expect(ids(await get(path, q(`${mine}&eq(id,${orgs[0]})`)))).toEqual([orgs[0]]);
  });

  it("searches every profile over the union of their attributes; an unknown profile is 404", async () => {
    const { prefix, orgs } = await seed();
    const path = "/api/v3/groups/search";
    expect(ids(await get(path, q(`like(id,${prefix}*)`)))).toEqual([...orgs, `${prefix}-d`].sort());
    expect(ids(await get(path, q(`like(id,${prefix}*)&eq(title,Acme 1)`)))).toEqual([`${prefix}-d`]);
    expect(ids(await get(path, q(`like(id,${prefix}*)&or(eq(title,Acme 1),eq(name,Acme 1))&sort(-profile)`)))).toEqual([orgs[0], `${prefix}-d`]);
    expect(ids(await get(path, `${q(`like(id,${prefix}*)&eq(profile,departments)`)}&expand=members`))).toEqual([`${prefix}-d`]);
    // Without rql: every group, the default page of 100.
    const everything = await get(path, "");
    expect(everything.body.length).toBeLessThanOrEqual(100);
    expect(ids(await get("/api/v3/groups/departments/search", q(`like(id,${prefix}*)`)))).toEqual([`${prefix}-d`]);
    rqlError(await get("/api/v3/groups/departments/search", q("eq(name,x)")), 3);

    const none = await get("/api/v3/groups/nope/search", q("eq(id,x)"));
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ type: "not_found_error", error: "unknown_group_profile" });
    expect((await get("/api/v3/groups/Bad!/search", "")).status).toBe(400);
    expect((await api("POST", "/api/v3/groups/search", { token: await changeToken() })).status).toBe(405);
  });

  it("answers a malformed, unknown-field, wrongly typed, huge or deep RQL with 400 at its position, never 500", async () => {
    const path = "/api/v3/groups/orgs/search";
    rqlError(await get(path, q("eq(name,acme")), 12);
    rqlError(await get(path, q("eq(nosuch,1)")), 3);
    rqlError(await get(path, q("eq(name,x)&gt(size,abc)")), 19);
    rqlError(await get(path, q("eq(active,maybe)")), 10);
    rqlError(await get(path, q("sort(+tags)")));
    rqlError(await get(path, q("limit(1001)")));
    rqlError(await get(path, q(`eq(name,${"x".repeat(5000)})`)));
    rqlError(await get(path, q(`${"and(".repeat(40)}eq(name,x)${")".repeat(40)}`)));
    rqlError(await get(path, q(Array.from({ length: 150 }, (_, i) => `eq(name,${i})`).join("&"))));
    rqlError(await get(path, q("eq(name,%zz)")), 8);
    rqlError(await get(path, q("eq(name,%00)")), 8);
    for (const raw of ["eq(name,x);DROP TABLE groups", "eq(name,x)--", "eq(name,x'); DROP TABLE groups; --", "eq(na'me,x)", "eq(name\u0000,x)", "🙂(name,x)"]) {
      const r = await get(path, q(raw));
      expect([200, 400], raw).toContain(r.status);
    }
    expect((await get(path, `${q("eq(name,x)")}&rql=eq(name,y)`)).status).toBe(400);
    expect((await get(path, `${q("eq(name,x)")}&expand=bogus`)).status).toBe(400);
    expect((await get(path, `${q("eq(name,x)")}&other=1`)).status).toBe(400);
    expect((await get(path, q("eq(id,org-fixture)"))).body.map((g: { id: string }) => g.id)).toEqual(["org-fixture"]);
  });

  it("treats hostile values as data: each finds only the group that holds it", async () => {
    const tag = unique("h");
    const holders: string[] = [];
    for (const name of HOSTILE.slice(0, 6)) {
      const id = unique("h-");
      holders.push(id);
      expect((await change("POST", `/api/v3/groups/orgs/${id}`, { name, tags: [tag] })).status).toBe(201);
    }
    for (const [i, name] of HOSTILE.slice(0, 6).entries()) {
      for (const rql of [`eq(name,${encodeRqlValue(name)})&eq(tags,${tag})`, `in(name,(${encodeRqlValue(name)},x))&eq(tags,${tag})`, `like(name,${encodeRqlValue(name)})&eq(tags,${tag})`]) {
        const found = await get("/api/v3/groups/orgs/search", q(rql));
        expect(ids(found), rql).toEqual(name.includes("*") ? expect.arrayContaining([holders[i]]) : [holders[i]]);
      }
    }
    expect(ids(await get("/api/v3/groups/search", q(`eq(tags,${encodeRqlValue(HOSTILE[0]!)})`)))).toEqual([]);
    expect(ids(await get("/api/v3/groups/search", q("eq(id,org-fixture)")))).toEqual(["org-fixture"]);
  });

  it("asks for the group read scopes; a user token finds only the groups its user is a member of", async () => {
    const { tag, orgs } = await seed();
    const rql = q(`eq(tags,${tag})`);
    expect((await api("GET", `/api/v3/groups/search?${rql}`)).status).toBe(401);
    expect((await get("/api/v3/groups/search", rql, await changeToken())).status).toBe(401);
    expect((await get("/api/v3/groups/search", rql, await systemToken("users-app", "idp_api_sys_users"))).status).toBe(401);

    const me = await createUserWithPassword();
    await change("POST", `/api/v3/groups/orgs/${orgs[1]}/members/${me.sub}`);
    await change("POST", `/api/v3/groups/orgs/${orgs[3]}/members/${me.sub}`);
    const token = await userToken(me, "idp_api_groups");
    expect(ids(await get("/api/v3/groups/search", rql, token))).toEqual([orgs[1], orgs[3]]);
    expect(ids(await get("/api/v3/groups/orgs/search", `${q(`eq(tags,${tag})&gt(size,30)`)}&expand=members`, token))).toEqual([orgs[3]]);
    expect(ids(await get("/api/v3/groups/search", q(`eq(id,${orgs[0]})`), token))).toEqual([]);
  });
});

describe("POST /api/v3/groups/{profile}/{id}/members?rql=", () => {
  async function groupWithMembers() {
    const g = unique("m-");
    expect((await change("POST", `/api/v3/groups/orgs/${g}`, { name: "Members" })).status).toBe(201);
    const mail = `${unique("m")}@example.ru`;
    // employee_id is unique digits: this test's own prefix.
    const emp = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    const a = await createUser({ family_name: "Груздев", given_name: "Анна", employee_id: `${emp}1`, birthdate: "1990-01-02", email: { value: mail, verified: true } });
    const b = await createUser({ family_name: "Петров", given_name: "Борис", employee_id: `${emp}2` });
    const c = await createUser({ family_name: "Груздев", given_name: "Вера" });
    const outsider = await createUser({ family_name: "Груздев" });
    expect((await change("POST", `/api/v3/groups/orgs/${g}/members`, { members: [a.sub, b.sub, c.sub] })).status).toBe(204);
    return { g, a, b, c, outsider, mail, emp, path: `/api/v3/groups/orgs/${g}/members` };
  }
  const filter = async (path: string, query: string, token?: string) => api("POST", `${path}?${query}`, { token: token ?? (await readToken()) });

  it("lists the members whose accounts match, as subs or with expand=attrs, in sort order then sub", async () => {
    const { a, b, c, mail, emp, path } = await groupWithMembers();
    const ivanovs = await filter(path, q("eq(family_name,Груздев)"));
    expect(ivanovs.status, ivanovs.text).toBe(200);
    expect(ivanovs.body).toEqual([a.sub, c.sub].sort());
    expect(ivanovs.headers.get("x-has-more")).toBe("false");
    expect((await filter(path, q("eq(family_name,Груздев)&sort(-given_name)"))).body).toEqual([c.sub, a.sub]);
    expect((await filter(path, q(`like(employee_id,${emp}*)&sort(+employee_id)`))).body).toEqual([a.sub, b.sub]);
    expect((await filter(path, q(`eq(email,${encodeRqlValue(mail)})`))).body).toEqual([a.sub]);
    expect((await filter(path, q("ge(birthdate,1990-01-01)&eq(locked,false)"))).body).toEqual([a.sub]);
    expect((await filter(path, q(`in(sub,(${b.sub},nobody))`))).body).toEqual([b.sub]);
    expect((await filter(path, q("eq(employee_id,null)"))).body).toEqual([c.sub]);
    const page = await filter(path, q("sort(+sub)&limit(2)"));
    expect(page.body).toEqual([a.sub, b.sub, c.sub].sort().slice(0, 2));
    expect(page.headers.get("x-has-more")).toBe("true");

    const expanded = await filter(path, `${q("eq(given_name,Анна)")}&expand=attrs`);
    expect(expanded.body).toEqual([{ sub: a.sub, family_name: "Груздев", given_name: "Анна", employee_id: `${emp}1`, birthdate: "1990-01-02", email: { value: mail, vrf: true }, locked: false }]);
    rqlError(await filter(path, q("eq(password,x)")), 3);
    rqlError(await filter(path, q("eq(family_name,Груздев")), 22);
    for (const name of HOSTILE) expect((await filter(path, q(`eq(family_name,${encodeRqlValue(name)})`))).body, name).toEqual([]);
  });

  it("respects the client's attribute selection, the read scopes and user-token membership; the bulk add still works", async () => {
    const { g, a, b, c, outsider, path } = await groupWithMembers();
    // limited-app may read sub, family_name and email of accounts (idp_api_sys_users).
    const limited = await systemToken("limited-app", "idp_api_sys_groups");
    expect((await filter(path, `${q("eq(family_name,Петров)")}&expand=attrs`, limited)).body).toEqual([{ sub: b.sub, family_name: "Петров" }]);
    rqlError(await filter(path, q("eq(given_name,Анна)"), limited), 3);

    expect((await filter(path, q("eq(sub,x)"), await changeToken())).status).toBe(401);
    expect((await api("POST", `${path}?${q("eq(sub,x)")}`)).status).toBe(401);
    expect((await api("POST", path, { token: await readToken(), body: { members: [outsider.sub] } })).status).toBe(401);
    expect((await api("POST", `${path}?${q("eq(sub,x)")}`, { token: await readToken(), body: { members: [outsider.sub] } })).status).toBe(400);
    expect((await api("POST", `${path}?expand=attrs`, { token: await changeToken(), body: { members: [outsider.sub] } })).status).toBe(400);
    expect((await api("POST", path, { token: await changeToken() })).status).toBe(400);
    expect((await filter(path, `${q("eq(sub,x)")}&expand=members`)).status).toBe(400);
    expect((await filter(`/api/v3/groups/departments/${g}/members`, q("eq(sub,x)"))).status).toBe(404);
    expect((await filter(`/api/v3/groups/orgs/${unique("nope-")}/members`, q("eq(sub,x)"))).status).toBe(404);

    const me = await createUserWithPassword();
    const token = await userToken(me, "idp_api_groups");
    expect((await filter(path, q("eq(family_name,Груздев)"), token)).status).toBe(404);
    expect((await api("POST", path, { token, body: { members: [me.sub] } })).status).toBe(401);
    expect((await api("POST", path, { token: await changeToken(), body: { members: [me.sub, outsider.sub] } })).status).toBe(204);
    expect((await filter(path, q("eq(family_name,Груздев)"), token)).body).toEqual([a.sub, c.sub, outsider.sub].sort());
  });
});

describe("the OpenAPI document", () => {
  it("documents both searches and the member filter with the shared rql parameter", async () => {
    const doc = (await request("/api/openapi.json")).body;
    const rql = { $ref: "#/components/parameters/Rql" };
    for (const p of ["/api/v3/groups/search", "/api/v3/groups/{profile}/search"]) {
      expect(doc.paths[p].get.parameters, p).toContainEqual(rql);
      expect(doc.paths[p].get.description, p).toContain("X-Has-More");
    }
    const members = doc.paths["/api/v3/groups/{profile}/{id}/members"].post;
    expect(members.parameters).toContainEqual(rql);
    expect(Object.keys(members.responses)).toEqual(expect.arrayContaining(["200", "204", "400"]));
    expect(members.description).toContain("With `rql`");
  });
});
