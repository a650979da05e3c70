import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { readUser, regToken, unique, uniquePhone } from "../support/accounts.ts";
import { api, systemToken } from "../support/http.ts";
import { codeAfter, codeOf, delivered, setSmsStatus, waitForMessage } from "../support/inbox.ts";

const register = async (body: unknown, headers?: Record<string, string>) => api("PUT", "/reg/api/v3/users", { token: await regToken(), body, headers });
const confirm = async (context: string, body: unknown, headers?: Record<string, string>) =>
  api("POST", `/reg/api/v3/users/${context}`, { token: await regToken(), body, headers });
const other = (code: string) => (code === "000000" ? "111111" : "000000");

describe("PUT /reg/api/v3/users", () => {
  it("creates the account at once when every contact is verified", async () => {
    const sub = unique("reg-");
    const email = `${sub}@example.ru`;
    const r = await register({ user: { attrs: { sub, family_name: "Орлов", email: { value: email, verified: true } }, credentials: { password: "correct horse battery" } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ instanceId: expect.any(String), subject: sub, context: "", cookies: [], instructions: [] });
    expect((await readUser(sub)).body).toMatchObject({ sub, family_name: "Орлов", email: { value: email, vrf: true } });
    expect(await delivered(email)).toEqual([]);
  });

  it("sends codes to unverified contacts and creates the account once both are confirmed", async () => {
    const sub = unique("reg-");
    const email = `${sub}@example.ru`;
    const phone = uniquePhone();
    const mailsBefore = (await delivered(email)).length;
    const { result: r, code: smsCode } = await codeAfter(phone, () =>
      register({ user: { attrs: { sub, phone_number: { value: phone, verified: false }, email: { value: email, verified: false } } } }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      context: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      instructions: [
        { name: "eml-enter-code", email, exp: expect.any(Number), attemts: 3 },
        { name: "mbl-enter-code", mobile: phone, exp: expect.any(Number), attemts: 3 },
      ],
    });
    expect(r.body.instructions[0].exp).toBeGreaterThan(Date.now() / 1000);
    expect((await readUser(sub)).status).toBe(404);
    const emailCode = codeOf(await waitForMessage(email, mailsBefore));
    const wrong = await confirm(r.body.context, { sms_code: other(smsCode) });
    expect(wrong.status).toBe(200);
    expect(wrong.body.instructions).toEqual([
      { name: "eml-enter-code", email, exp: expect.any(Number), attemts: 3 },
      { name: "mbl-try-again", mobile: phone, exp: expect.any(Number), attemts: 2 },
    ]);
    const mail = await confirm(r.body.context, { email_code: emailCode });
    expect(mail.body).toEqual({ context: r.body.context, instructions: [{ name: "mbl-try-again", mobile: phone, exp: expect.any(Number), attemts: 2 }] });
    const done = await confirm(r.body.context, { sms_code: smsCode });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ instanceId: expect.any(String), subject: sub, context: "", cookies: [], instructions: [] });
    expect((await readUser(sub)).body).toMatchObject({ email: { value: email, vrf: true }, phone_number: { value: phone, vrf: true } });
    expect((await confirm(r.body.context, { sms_code: smsCode })).status).toBe(404);
  });

  it("runs out of attempts, refuses resends within the cooldown, and a resend replaces the code", async () => {
    const phone = uniquePhone();
    const { result: r, code: first } = await codeAfter(phone, () => register({ user: { attrs: { phone_number: { value: phone, verified: false } } } }));
    const ctx = r.body.context;
    for (const left of [2, 1]) expect((await confirm(ctx, { sms_code: other(first) })).body.instructions[0]).toMatchObject({ name: "mbl-try-again", attemts: left });
    const out = await confirm(ctx, { sms_code: other(first) });
    expect(out.body.instructions).toEqual([{ name: "mbl-no-attempts", mobile: phone, attemts: 0 }]);
    expect((await confirm(ctx, { sms_code: first })).body.instructions[0].name).toBe("mbl-no-attempts");
    const soon = await confirm(ctx, { sms_code_resend: phone });
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(soon.body).toEqual({ errors: [{ errMsg: expect.stringMatching(/^Новый код можно запросить через \d+ с$/), field: "sms_code_resend" }], context: "" });
    await new Promise((res) => setTimeout(res, 2100));
    const { result: again, code: second } = await codeAfter(phone, () => confirm(ctx, { sms_code_resend: "" }));
    expect(again.body.instructions).toEqual([{ name: "mbl-enter-code", mobile: phone, exp: expect.any(Number), attemts: 3 }]);
    if (second !== first) expect((await confirm(ctx, { sms_code: first })).body.instructions[0].name).toBe("mbl-try-again");
    const done = await confirm(ctx, { sms_code: second });
    expect(done.body.subject).toEqual(expect.any(String));
  });

  it("creates the account exactly once under eight parallel right codes and spends no more than the attempts under 50 wrong ones", async () => {
    const phone = uniquePhone();
    const { result: r, code } = await codeAfter(phone, () => register({ user: { attrs: { phone_number: { value: phone, verified: false } } } }));
    const wrong = await Promise.all(Array.from({ length: 50 }, () => confirm(r.body.context, { sms_code: other(code) })));
    expect(wrong.every((w) => w.status === 200)).toBe(true);
    expect(wrong.filter((w) => w.body.instructions[0].name === "mbl-try-again")).toHaveLength(2);
    expect(wrong.filter((w) => w.body.instructions[0].name === "mbl-no-attempts")).toHaveLength(48);

    const phone2 = uniquePhone();
    const { result: r2, code: code2 } = await codeAfter(phone2, () => register({ user: { attrs: { phone_number: { value: phone2, verified: false } } } }));
    const right = await Promise.all(Array.from({ length: 8 }, () => confirm(r2.body.context, { sms_code: code2 })));
    expect(right.filter((x) => x.status === 200 && x.body.subject)).toHaveLength(1);
    expect(right.filter((x) => x.status === 404)).toHaveLength(7);
  });

  it("explains a password policy violation in Russian, or English on request", async () => {
    const body = { user: { attrs: { family_name: "Коротков" }, credentials: { password: "short" } } };
    const ru = await register(body);
    expect(ru.status).toBe(400);
    expect(ru.body).toEqual({ errors: [{ errMsg: "Пароль должен содержать не менее 15 символов", field: "password" }], context: "" });
    const en = await register(body, { "accept-language": "en-US,en;q=0.9" });
    expect(en.body).toEqual({ errors: [{ errMsg: "The password must be at least 15 characters long", field: "password" }], context: "" });
  });

  it("names each field whose value another account holds (409)", async () => {
    const r = await register({ user: { attrs: { sub: "ivanov", email: { value: "Ivanov@example.ru", verified: true }, phone_number: { value: "89990000001", verified: false } } } });
    expect(r.status).toBe(409);
    expect(r.body.context).toBe("");
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "phone_number", "sub"]);
    expect(r.body.errors[0].errMsg).toBe("Значение уже используется другой учётной записью");
  });

  it("answers while the SMS transport is down, keeps the confirmation, and a resend delivers once it is back", async () => {
    const phone = uniquePhone();
    await setSmsStatus(500);
    let r;
    try {
      r = await register({ user: { attrs: { phone_number: { value: phone, verified: false } } } });
      expect(r.status).toBe(200);
      expect(r.body.instructions).toEqual([{ name: "mbl-enter-code", mobile: phone, exp: expect.any(Number), attemts: 3 }]);
      await new Promise((res) => setTimeout(res, 2100));
      expect(await delivered(phone)).toEqual([]);
    } finally {
      await setSmsStatus(200);
    }
    if (inject("dbKind") === "postgres") {
      const db = new pg.Client({ connectionString: inject("databaseUrl") });
      await db.connect();
      const rows = (await db.query("SELECT status, attempts, last_error FROM outbox_messages WHERE recipient = $1", [phone])).rows;
      await db.end();
      expect(rows).toEqual([{ status: "pending", attempts: 1, last_error: expect.stringContaining("500") }]);
    }
    const { result: again, code } = await codeAfter(phone, () => confirm(r.body.context, { sms_code_resend: phone }));
    expect(again.status).toBe(200);
    expect((await confirm(r.body.context, { sms_code: code })).body.subject).toEqual(expect.any(String));
  });

  it("lets exactly one of ten parallel registrations of one e-mail or one sub succeed", async () => {
    const email = `${unique("race")}@example.ru`;
    const sameEmail = await Promise.all(Array.from({ length: 10 }, () => register({ user: { attrs: { email: { value: email, verified: true } } } })));
    expect(sameEmail.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const sub = unique("race-");
    const sameSub = await Promise.all(Array.from({ length: 10 }, (_, i) => register({ user: { attrs: { sub, email: { value: `${sub}-${i}@example.ru`, verified: true } } } })));
    expect(sameSub.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(sameSub.find((r) => r.status === 409)!.body.errors.map((e: { field: string }) => e.field)).toContain("sub");
  });

  it("refuses an unknown dynamic client id for bindDynClient and creates nothing", async () => {
    const sub = unique("dyn-");
    const r = await register({ user: { attrs: { sub } }, actions: [{ type: "bindDynClient", client_id: "dyn-123" }] });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: [{ errMsg: "Неизвестный динамический клиент dyn-123", field: "actions[0].client_id" }], context: "" });
    expect((await readUser(sub)).status).toBe(404);
  });

  it("refuses invalid attributes field by field and a confirmation body with not exactly one field", async () => {
    const bad = await register({ user: { attrs: { sub: 123, email: { value: "not-an-email", verified: true }, nickname: "x" } } }, { "accept-language": "en" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { errMsg: "must be an e-mail address", field: "email" },
        { errMsg: "unknown attribute", field: "nickname" },
        { errMsg: "must be a string", field: "sub" },
      ]),
    );
    const two = await confirm("whatever", { email_code: "1", sms_code: "2" });
    expect(two.status).toBe(400);
    expect(two.body.context).toBe("");
    expect((await confirm("no-such-context", { sms_code: "123456" })).status).toBe(404);
  });
});

describe("registration refuses a bad token like every v3 operation", () => {
  it("answers a missing, malformed or insufficient token with the security_error body, and registers nobody", async () => {
    const sub = unique("noreg-");
    const body = { user: { attrs: { sub, family_name: "Без" } } };
    const narrow = await systemToken("users-app", "idp_api_sys_users");
    const cases: [string, Record<string, string>, string][] = [
      ["missing", {}, "missing_access_token"],
      ["malformed", { authorization: "Bearer not.a.token" }, "invalid_access_token"],
      ["without idp_api_sys_users_reg", { authorization: `Bearer ${narrow}` }, "missing scopes: idp_api_sys_users_reg"],
    ];
    for (const [what, headers, desc] of cases) {
      for (const path of ["/reg/api/v3/users", "/reg/api/v3/users/no-such-context"]) {
        const r = await api(path.endsWith("users") ? "PUT" : "POST", path, { body: path.endsWith("users") ? body : { email_code: "123456" }, headers });
        expect(r.status, `${what} ${path}`).toBe(401);
        expect(r.body, `${what} ${path}`).toEqual({ type: "security_error", error: "bad_access_token", desc });
        expect(r.headers.get("www-authenticate"), what).toMatch(/^Bearer realm="idp"/);
      }
    }
    expect((await readUser(sub)).status).toBe(404);
  });
});

describe("PUT /reg/api/v1/users", () => {
  it("creates the account at once from a flat object and sends a code to the unconfirmed e-mail", async () => {
    const uid = unique("v1reg-");
    const email = `${uid}@example.ru`;
    const { result: r, code } = await codeAfter(email, () =>
      api("PUT", "/reg/api/v1/users", { basic: ["users-app", "users-rest-password"], body: { uid, surname: "Фёдоров", personal_mail: email, password: "long-enough-pass" } }),
    );
    expect(r.status).toBe(200);
    expect(r.headers.get("deprecation")).toBe("true");
    expect(r.body).toEqual({ subject: uid, context: expect.any(String), instructions: [{ name: "eml-enter-code", email, exp: expect.any(Number), attemts: 3 }] });
    expect((await readUser(uid)).body).toMatchObject({ family_name: "Фёдоров", email: { value: email, vrf: false } });
    const done = await confirm(r.body.context, { email_code: code });
    expect(done.body).toMatchObject({ subject: uid, context: "", instructions: [] });
    expect((await readUser(uid)).body.email).toEqual({ value: email, vrf: true });
  });

  it("answers 401 without the REST password and 400 with the registration error body", async () => {
    expect((await api("PUT", "/reg/api/v1/users", { body: { surname: "X" } })).status).toBe(401);
    const r = await api("PUT", "/reg/api/v1/users", { basic: ["users-app", "users-rest-password"], body: { personal_mobile: "123" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: [{ errMsg: "Номер телефона должен быть в формате 7XXXXXXXXXX", field: "phone_number" }], context: "" });
  });
});
