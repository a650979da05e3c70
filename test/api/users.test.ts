import { readFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { changeUser, changeToken, createUser, readUser, regToken, unique, uniquePhone } from "../support/accounts.ts";
import { api, request, systemToken } from "../support/http.ts";
import { codeAfter, delivered } from "../support/inbox.ts";

describe("GET /api/v3/users/{subjectId}", () => {
  it("returns the catalog's attributes with meta, and nothing secret", async () => {
    const r = await readUser("ivanov");
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toEqual({
      sub: "ivanov",
      family_name: "Иванов",
      given_name: "Иван",
      locked: false,
      phone_number: { value: "79990000001", vrf: true },
      email: { value: "ivanov@example.ru", vrf: true },
      employee_id: "1001",
      meta: { instanceId: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}$/), unmodifiable: ["sub"] },
    });
    expect(r.text).not.toMatch(/argon2|password/i);
  });

  it("answers an unknown subject with 404", async () => {
    const r = await readUser("nobody-here");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ type: "not_found_error", error: "unknown_user", desc: "user not found" });
  });

  it("shows a client only the attributes selected for it, and refuses changes outside its selection", async () => {
    const { sub } = await createUser({ given_name: "Анна", email: { value: `${unique("sel")}@example.ru`, verified: true } });
    const token = await systemToken("limited-app", "idp_api_sys_users");
    const read = await api("GET", `/api/v3/users/${sub}`, { token });
    expect(Object.keys(read.body).sort()).toEqual(["email", "family_name", "meta", "sub"]);
    expect(read.body.meta.unmodifiable).toEqual(["sub", "email"]);
    const chg = await systemToken("limited-app", "idp_api_sys_users_chg");
    const refused = await api("POST", `/api/v3/users/${read.body.meta.instanceId}`, { token: chg, body: { given_name: "Ольга" } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ type: "input_error", error: "wrong_value", desc: "this attribute is not available to the client", pos: "given_name", params: {} }]);
    const ok = await api("POST", `/api/v3/users/${read.body.meta.instanceId}`, { token: chg, body: { family_name: "Смирнова" } });
    expect(ok.status).toBe(200);
    expect(ok.body.family_name).toBe("Смирнова");
    expect(ok.body.given_name).toBeUndefined();
    expect((await readUser(sub)).body.given_name).toBe("Анна");
  });
});

describe("POST /api/v3/users/{instanceId}", () => {
  it("changes attributes, gives a new instanceId, and refuses the old one without changing anything", async () => {
    const { sub, instanceId } = await createUser();
    const r = await changeUser(instanceId, { family_name: "Новиков", birthdate: "1990-05-17", middle_name: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sub, family_name: "Новиков", birthdate: "1990-05-17" });
    expect(r.body.meta.instanceId).not.toBe(instanceId);
    const stale = await changeUser(instanceId, { family_name: "Старый" });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ type: "process_error", error: "stale_instance_id" });
    expect((await readUser(sub)).body.family_name).toBe("Новиков");
  });

  it("lets exactly one of parallel changes from the same version win", async () => {
    const { sub, instanceId } = await createUser();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => changeUser(instanceId, { given_name: `Имя${i}` })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    const winner = results.find((r) => r.status === 200)!;
    expect((await readUser(sub)).body.given_name).toBe(winner.body.given_name);
  });

  it("reports every invalid attribute with its position and changes nothing", async () => {
    const { sub, instanceId } = await createUser();
    const r = await changeUser(instanceId, { nickname: "x", sub: "other", phone_number: { value: "12345", vrf: true }, birthdate: "1990-02-30", employee_id: "12a", locked: "yes" });
    expect(r.status).toBe(400);
    expect(r.body.type).toBe("input_error");
    expect(r.body.error).toBe("wrong_values");
    expect(r.body.errors.map((e: { pos: string; error: string }) => `${e.error}:${e.pos}`).sort()).toEqual(
      ["wrong_value:birthdate", "wrong_value:employee_id", "wrong_value:locked", "wrong_value:nickname", "wrong_value:phone_number", "wrong_value:sub"].sort(),
    );
    const after = await readUser(sub);
    expect(after.body.meta.instanceId).toBe(instanceId);
  });

  it("refuses bodies nested deeper than 32 levels with a 400 in the family's shape, not a stack overflow", async () => {
    const { instanceId } = await createUser();
    const deep = `{"family_name":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const headers = { authorization: `Bearer ${await changeToken()}`, "content-type": "application/json" };
    const r = await request(`/api/v3/users/${instanceId}`, { method: "POST", headers, body: deep });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].desc).toBe("body is nested deeper than 32 levels");
    const reg = await request("/reg/api/v3/users", { method: "PUT", headers: { ...headers, authorization: `Bearer ${await regToken()}` }, body: `{"user":${'{"a":'.repeat(5000)}1${"}".repeat(5001)}` });
    expect(reg.status).toBe(400);
    expect(reg.body).toEqual({ errors: [{ errMsg: "body is nested deeper than 32 levels", field: "" }], context: "" });
  });

  it("refuses a contact or unique value another account holds (case-insensitively)", async () => {
    const { instanceId } = await createUser();
    const r = await changeUser(instanceId, { email: { value: "IVANOV@Example.RU", vrf: true }, employee_id: "1001" });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { error: string; pos: string }) => [e.error, e.pos]).sort()).toEqual([
      ["contact_use_violation", "email"],
      ["contact_use_violation", "employee_id"],
    ]);
  });

  it("normalises phones and applies vrf=true contacts at once", async () => {
    const { sub, instanceId } = await createUser();
    const phone = uniquePhone();
    const r = await changeUser(instanceId, { phone_number: { value: `+7 (${phone.slice(1, 4)}) ${phone.slice(4, 7)}-${phone.slice(7, 9)}-${phone.slice(9)}`, vrf: true } });
    expect(r.status).toBe(200);
    expect(r.body.phone_number).toEqual({ value: phone, vrf: true });
    expect(r.body.notes).toBeUndefined();
    expect((await readUser(sub)).body.phone_number).toEqual({ value: phone, vrf: true });
  });
});

describe("contact change confirmed by code", () => {
  it("sends an SMS code for vrf=false, counts wrong codes, and applies the right one (204)", async () => {
    const { sub, instanceId } = await createUser({ phone_number: { value: uniquePhone(), verified: true } });
    const old = (await readUser(sub)).body.phone_number.value;
    const phone = uniquePhone();
    const { result: r, code } = await codeAfter(phone, () => changeUser(instanceId, { phone_number: { value: phone, vrf: false } }));
    expect(r.status).toBe(200);
    expect(r.body.phone_number).toEqual({ value: old, vrf: true });
    const [note] = r.body.notes.actions;
    expect(note).toEqual({
      state: expect.any(String),
      exp: expect.any(Number),
      status: "code_waiting",
      from: old,
      attr: "phone_number",
      value: phone,
      action: "validate_mobile",
      attempts_left: 3,
      created: expect.any(Number),
    });
    expect(note.exp).toBeGreaterThan(500);
    expect(JSON.stringify(r.body)).not.toContain(code);
    // While it waits, the code is in the database only as a keyed hash and a sealed message.
    if (inject("dbKind") === "postgres") {
      const db = new pg.Client({ connectionString: inject("databaseUrl") });
      await db.connect();
      const stored = (await db.query("SELECT code_hash FROM confirmations WHERE value = $1", [phone])).rows;
      const outbox = (await db.query("SELECT subject, body_sealed FROM outbox_messages WHERE recipient = $1", [phone])).rows;
      await db.end();
      expect(stored).toEqual([{ code_hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }]);
      expect(outbox).toHaveLength(1);
      expect(JSON.stringify([stored, outbox])).not.toContain(code);
    }
    const url = `/api/v3/users/notes/validate_mobile/${note.state}`;
    const wrong = await api("POST", url, { token: await changeToken(), body: { cmd: "code", value: code === "000000" ? "111111" : "000000" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ msg: "wrong_code", attempts_left: 2, state: note.state, status: "code_waiting" });
    const right = await api("POST", url, { token: await changeToken(), body: { cmd: "code", value: code } });
    expect(right.status).toBe(204);
    expect(right.text).toBe("");
    // The code left only by SMS: it is not in the server's log.
    const log = readFileSync(inject("serverLog"), "utf8");
    for (const form of [`"${code}"`, `=${code}`, ` ${code}`]) expect(log).not.toContain(form);
    const after = await readUser(sub);
    expect(after.body.phone_number).toEqual({ value: phone, vrf: true });
    expect(after.body.notes).toBeUndefined();
    expect(after.body.meta.instanceId).not.toBe(r.body.meta.instanceId);
  });

  it("e-mails a code and answers the right one with the updated account", async () => {
    const { instanceId } = await createUser();
    const email = `${unique("chg")}@example.ru`;
    const { result: r, code } = await codeAfter(email, () => changeUser(instanceId, { email: { value: email, vrf: false } }));
    expect(r.body.email).toBeUndefined();
    const note = r.body.notes.actions[0];
    expect(note).toMatchObject({ attr: "email", value: email, from: "", action: "validate_email" });
    const mail = (await delivered(email)).at(-1)!;
    expect(mail.subject).toBeTruthy();
    const ok = await api("POST", `/api/v3/users/notes/validate_email/${note.state}`, { token: await changeToken(), body: { cmd: "code", value: code } });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toEqual({ value: email, vrf: true });
  });

  it("never spends more than the allowed attempts under 50 parallel wrong codes, then refuses even the right one", async () => {
    const { instanceId } = await createUser();
    const phone = uniquePhone();
    const { result: r, code } = await codeAfter(phone, () => changeUser(instanceId, { phone_number: { value: phone, vrf: false } }));
    const url = `/api/v3/users/notes/validate_mobile/${r.body.notes.actions[0].state}`;
    const wrong = code === "999999" ? "999998" : "999999";
    const token = await changeToken();
    const results = await Promise.all(Array.from({ length: 50 }, () => api("POST", url, { token, body: { cmd: "code", value: wrong } })));
    expect(results.filter((x) => x.status === 400).map((x) => x.body.attempts_left).sort()).toEqual([1, 2]);
    const failed = results.filter((x) => x.status === 410);
    expect(failed).toHaveLength(48);
    expect(failed[0]!.body).toEqual({ id: r.body.notes.actions[0].state, cause: "no_attempts_left", attr: "phone_number" });
    const late = await api("POST", url, { token, body: { cmd: "code", value: code } });
    expect(late.status).toBe(410);
    expect(late.body.cause).toBe("no_attempts_left");
  });

  it("confirms exactly once when the right code is sent eight times in parallel", async () => {
    const { instanceId } = await createUser();
    const phone = uniquePhone();
    const { result: r, code } = await codeAfter(phone, () => changeUser(instanceId, { phone_number: { value: phone, vrf: false } }));
    const url = `/api/v3/users/notes/validate_mobile/${r.body.notes.actions[0].state}`;
    const token = await changeToken();
    const results = await Promise.all(Array.from({ length: 8 }, () => api("POST", url, { token, body: { cmd: "code", value: code } })));
    expect(results.filter((x) => x.status === 204)).toHaveLength(1);
    expect(results.filter((x) => x.status === 404)).toHaveLength(7);
  });

  it("answers an unknown state or the wrong kind of confirmation with 404", async () => {
    const token = await changeToken();
    const r = await api("POST", "/api/v3/users/notes/validate_email/no-such-state", { token, body: { cmd: "code", value: "123456" } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ type: "not_found_error", error: "unknown_confirmation", desc: "confirmation not found" });
    const bad = await api("POST", "/api/v3/users/notes/validate_email/x", { token, body: { cmd: "code" } });
    expect(bad.status).toBe(400);
  });
});

describe("DELETE /api/v3/users/{instanceId}", () => {
  it("needs the current version and removes the account", async () => {
    const { sub, instanceId } = await createUser();
    const changed = await changeUser(instanceId, { given_name: "Удаляемый" });
    const token = await changeToken();
    const stale = await api("DELETE", `/api/v3/users/${instanceId}`, { token });
    expect(stale.status).toBe(409);
    expect((await readUser(sub)).status).toBe(200);
    const gone = await api("DELETE", `/api/v3/users/${changed.body.meta.instanceId}`, { token });
    expect(gone.status).toBe(204);
    expect((await readUser(sub)).status).toBe(404);
    const again = await api("DELETE", `/api/v3/users/${changed.body.meta.instanceId}`, { token });
    expect(again.status).toBe(404);
  });
});
