import { describe, expect, it } from "vitest";
import { createUser, readUser, unique } from "../support/accounts.ts";
import { api } from "../support/http.ts";

const basic: [string, string] = ["users-app", "users-rest-password"];
const search = (query: string, opts: { basic?: [string, string] } = { basic }) => api("GET", `/api/v1/users?query=${encodeURIComponent(query)}`, opts);

describe("v1 accounts (HTTP Basic, deprecated)", () => {
  it("searches with * masks anywhere in the value, case-insensitively, by v1 alias or name", async () => {
    const prefix = await search("surname=Иван*");
    expect(prefix.status).toBe(200);
    expect(prefix.headers.get("deprecation")).toBe("true");
    expect(prefix.body.map((r: { attrs: { uid: string } }) => r.attrs.uid)).toEqual(["ivanov", "ivanova"]);
    expect(prefix.body[0]).toEqual({
      instanceId: expect.any(String),
      attrs: { uid: "ivanov", surname: "Иванов", name: "Иван", locked: false, personal_mobile: "79990000001", personal_mail: "ivanov@example.ru", tabnum: "1001" },
      readOnly: false,
      unmodifiable: ["uid"],
    });
    const suffix = (await search("family_name=*ова")).body.map((r: { attrs: { uid: string } }) => r.attrs.uid);
    expect(suffix).toContain("ivanova");
    expect(suffix).not.toContain("ivanov");
    expect((await search("surname=и*ов")).body.map((r: { attrs: { uid: string } }) => r.attrs.uid)).toEqual(["ivanov"]);
    expect((await search("personal_mail=IVANOV@example.ru")).body).toHaveLength(1);
    expect((await search("personal_mobile=+7 999 000-00-01")).body).toHaveLength(1);
    expect((await search("surname=Сидоров")).body).toEqual([]);
  });

  it("treats LIKE's own wildcards in the value literally", async () => {
    expect((await search("surname=Иван%")).body).toEqual([]);
    expect((await search("surname=Иван_в")).body).toEqual([]);
  });

  it("refuses searches it cannot serve from an index, or on unknown or unsearchable attributes", async () => {
    for (const q of ["surname=*", "surname=*ов", "nothing=x", "birthdate=1990*", "surname"]) {
      const r = await search(q);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].pos).toBe("query");
    }
  });

  it("requires the client's REST password", async () => {
    const none = await search("surname=Иван*", {});
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ type: "security_error", error: "invalid_credential" });
    expect(none.headers.get("www-authenticate")).toContain("Basic");
    expect((await search("surname=Иван*", { basic: ["users-app", "wrong"] })).status).toBe(401);
    expect((await search("surname=Иван*", { basic: ["post-app", "post-secret-123"] })).status).toBe(401);
  });

  it("reads a record by any version id and changes it with replaced and deleted", async () => {
    const { sub, instanceId } = await createUser({ given_name: "Олег", email: { value: `${unique("v1")}@example.ru`, verified: true } });
    const read = await api("GET", `/api/v1/users/${instanceId}`, { basic });
    expect(read.status).toBe(200);
    expect(read.body.attrs).toMatchObject({ uid: sub, name: "Олег" });
    const email = read.body.attrs.personal_mail;
    const changed = await api("POST", "/api/v1/users", { basic, body: { instanceId, replaced: { surname: "Кузнецов", personal_mail: email }, deleted: ["name"] } });
    expect(changed.status).toBe(200);
    expect(changed.body.attrs).toMatchObject({ uid: sub, surname: "Кузнецов", personal_mail: email });
    expect(changed.body.attrs.name).toBeUndefined();
    const v3 = (await readUser(sub)).body;
    expect(v3.email).toEqual({ value: email, vrf: true });
    expect(v3.given_name).toBeUndefined();
    expect((await api("GET", `/api/v1/users/${instanceId}`, { basic })).body.instanceId).toBe(changed.body.instanceId);
  });

  it("refuses deleting unmodifiable attributes, unknown names and stale or unknown versions", async () => {
    const { instanceId } = await createUser();
    const r = await api("POST", "/api/v1/users", { basic, body: { instanceId, replaced: {}, deleted: ["uid", "nickname"] } });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { pos: string }) => e.pos).sort()).toEqual(["nickname", "sub"]);
    await api("POST", "/api/v1/users", { basic, body: { instanceId, replaced: { surname: "A" } } });
    expect((await api("POST", "/api/v1/users", { basic, body: { instanceId, replaced: { surname: "B" } } })).status).toBe(409);
    expect((await api("GET", "/api/v1/users/bm9ib2R5.AAAAAAAAAAAAAAAA", { basic })).status).toBe(404);
    expect((await api("GET", "/api/v1/users/garbage", { basic })).status).toBe(404);
  });
});

describe("v1 operations need the client's system scopes and honour its attribute selections", () => {
  // limits-app holds idp_api_sys_users only; limited-app reads sub, family_name and email and changes family_name.
  const readOnly: [string, string] = ["limits-app", "limits-app-rest-password"];
  const limited: [string, string] = ["limited-app", "limited-rest-password"];

  function expectNotAllowed(r: { status: number; body: Record<string, unknown>; headers: Headers }) {
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toContain("Basic");
  }

  it("a client with only the read scope searches and reads, but cannot change, register or bind a generator", async () => {
    const { sub, instanceId } = await createUser({ given_name: "Пётр" });
    expect((await api("GET", `/api/v1/users/${instanceId}`, { basic: readOnly })).status).toBe(200);
    expect((await search("surname=Иван*", { basic: readOnly })).status).toBe(200);

    const change = await api("POST", "/api/v1/users", { basic: readOnly, body: { instanceId, replaced: { locked: "true", surname: "Взломов" } } });
    expectNotAllowed(change);
    expect(change.body).toMatchObject({ type: "security_error", error: "access_denied" });
    const after = (await readUser(sub)).body;
    expect(after.family_name).toBe("Тестов");
    expect(after.meta.instanceId).toBe(instanceId);

    const uid = unique("v1reg-");
    const reg = await api("PUT", "/reg/api/v1/users", { basic: readOnly, body: { uid, surname: "Захватов", password: "long-enough-pass" } });
    expectNotAllowed(reg);
    expect(reg.body).toEqual({ errors: [{ errMsg: "the client application lacks the scope: idp_api_sys_users_reg", field: "" }], context: "" });
    expect((await search(`uid=${uid}`)).body).toEqual([]);

    const hotp = await api("PUT", `/rest/usr/${sub}/attach/hotp`, { basic: readOnly, body: { serial: "NOPE-1", otp1: "1", otp2: "2", otp3: "3" } });
    expectNotAllowed(hotp);
    expect(hotp.body).toMatchObject({ type: "security_error", error: "access_denied" });
  });

  it("shows, searches and changes only the attributes the client's selections name", async () => {
    const { sub, instanceId } = await createUser({ given_name: "Анна", email: { value: `${unique("sel")}@example.ru`, verified: true } });
    const read = await api("GET", `/api/v1/users/${instanceId}`, { basic: limited });
    expect(read.status).toBe(200);
    expect(Object.keys(read.body.attrs).sort()).toEqual(["personal_mail", "surname", "uid"]);
    expect(read.body.unmodifiable.sort()).toEqual(["personal_mail", "uid"]);

    const byHidden = await search("name=Анна", { basic: limited });
    expect(byHidden.status).toBe(400);
    expect(byHidden.body.errors[0].pos).toBe("query");
    expect((await search("surname=Тестов", { basic: limited })).status).toBe(200);

    const hidden = await api("POST", "/api/v1/users", { basic: limited, body: { instanceId, replaced: { name: "Мария" } } });
    expect(hidden.status).toBe(400);
    expect((await readUser(sub)).body.given_name).toBe("Анна");
    const allowed = await api("POST", "/api/v1/users", { basic: limited, body: { instanceId, replaced: { surname: "Новикова" } } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.attrs).toEqual({ uid: sub, surname: "Новикова", personal_mail: read.body.attrs.personal_mail });
  });
});
