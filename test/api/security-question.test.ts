import { readFileSync } from "node:fs";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createUser, createUserWithPassword, readUser } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

const postgres = inject("dbKind") === "postgres";
const sys = (scope: string) => systemToken("users-app", scope);
const path = (segment: string, tail = "") => `/api/v3/users/${encodeURIComponent(segment)}/secQsn${tail}`;
const read = async (sub: string) => api("GET", path(sub), { token: await sys("idp_api_sys_usec") });
const set = async (segment: string, body: unknown) => api("POST", path(segment), { token: await sys("idp_api_sys_usec_chg"), body });
const check = async (segment: string, body: unknown) => api("POST", path(segment, "/check"), { token: await sys("idp_api_sys_usec"), body });
const remove = async (segment: string) => api("DELETE", path(segment), { token: await sys("idp_api_sys_usec_chg") });
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await sys("idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

const QUESTION = "Кличка первого питомца?";
const ANSWER = "Ёжик  Пушок";
const wrongBody = (desc: string) => ({ type: "process_error", error: "wrong_security_answer", desc, params: {} });

describe("security question in system mode", () => {
  it("is set, read, checked ignoring case and spaces, and deleted", async () => {
    const { sub } = await createUser();
    expect((await read(sub)).status).toBe(404);
    expect((await check(sub, { question: QUESTION, answer: ANSWER })).body).toEqual(wrongBody("security question not found"));

    const r = await set(sub, { question: QUESTION, answer: ANSWER });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect(await read(sub)).toMatchObject({ status: 200, body: { question: QUESTION } });
    expect(Object.keys((await read(sub)).body)).toEqual(["question"]);

    expect((await check(sub, { question: QUESTION, answer: "  ежик пушок " })).status).toBe(204);
    expect((await check(sub, { question: QUESTION, answer: "ЁЖИК\u00A0ПУШОК" })).status).toBe(204);
    const wrong = await check(sub, { question: QUESTION, answer: "Мурзик" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(wrongBody("security answer not match"));
    expect((await check(sub, { question: "Девичья фамилия матери?", answer: ANSWER })).body).toEqual(wrongBody("security question not match"));

    expect((await set(sub, { question: "Любимая книга?", answer: "Мастер и Маргарита" })).status).toBe(204);
    expect((await read(sub)).body).toEqual({ question: "Любимая книга?" });
    expect((await check(sub, { question: "Любимая книга?", answer: ANSWER })).body.desc).toBe("security answer not match");

    expect((await remove(sub)).status).toBe(204);
    expect((await read(sub)).status).toBe(404);
    expect((await remove(sub)).status).toBe(404);
    expect((await check(sub, { question: QUESTION, answer: ANSWER })).body).toEqual(wrongBody("security question not found"));

    expect((await eventsOf(sub, "user.security_question_set")).length).toBe(2);
    expect((await eventsOf(sub, "user.security_question_deleted")).length).toBe(1);
    expect((await eventsOf(sub, "user.security_answer_checked")).length).toBe(2);
    expect((await eventsOf(sub, "user.security_answer_failed")).map((e) => e.params.reason).sort()).toEqual(["wrong_answer", "wrong_answer", "wrong_question"]);
  });

  it("takes the account's instanceId in place of the subject, and refuses a stale one", async () => {
    const { sub, instanceId } = await createUser();
    expect((await set(instanceId, { question: QUESTION, answer: ANSWER })).status).toBe(204);
    expect((await check(instanceId, { question: QUESTION, answer: ANSWER })).status).toBe(204);
    await api("POST", `/api/v3/users/${instanceId}`, { token: await sys("idp_api_sys_users_chg"), body: { given_name: "Иван" } });
    expect((await readUser(sub)).body.meta.instanceId).not.toBe(instanceId);
    const stale = await set(instanceId, { question: "Другой?", answer: "нет" });
    expect(stale.status).toBe(409);
    expect((await read(sub)).body.question).toBe(QUESTION);
  });

  it("refuses bad input with input_error naming the field, and changes nothing", async () => {
    const { sub } = await createUser();
    await set(sub, { question: QUESTION, answer: ANSWER });
    const cases: [unknown, string][] = [
      [{ question: "", answer: "x" }, "question"],
      [{ question: "   ", answer: "x" }, "question"],
      [{ question: QUESTION, answer: "   " }, "answer"],
      [{ question: QUESTION }, "answer"],
      [{ question: 42, answer: "x" }, "question"],
      [{ question: QUESTION, answer: ["a"] }, "answer"],
      [{ question: "q".repeat(501), answer: "x" }, "question"],
      [{ question: QUESTION, answer: "a".repeat(501) }, "answer"],
      [{ question: QUESTION, answer: "x", extra: 1 }, "extra"],
    ];
    for (const [body, pos] of cases) {
      const r = await set(sub, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.type).toBe("input_error");
      expect(r.body.errors.map((e: { pos: string }) => e.pos)).toContain(pos);
    }
    expect((await check(sub, { question: QUESTION, answer: ANSWER })).status).toBe(204);
    expect((await set("no-such-user-" + Date.now(), { question: QUESTION, answer: ANSWER })).status).toBe(404);
    expect((await read("no-such-user-" + Date.now())).status).toBe(404);
  });

  it("needs the scopes of the contract", async () => {
    const { sub } = await createUser();
    expect((await api("GET", path(sub), { token: await sys("idp_api_sys_users") })).status).toBe(401);
    const r = await api("POST", path(sub), { token: await sys("idp_api_sys_usec"), body: { question: QUESTION, answer: ANSWER } });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await read(sub)).status).toBe(404);
  });

  it("keeps the answer out of responses and logs, and only its argon2id hash in the database", async () => {
    const { sub } = await createUser();
    const secret = `Секрет-${Date.now()}`;
    await set(sub, { question: QUESTION, answer: secret });
    await check(sub, { question: QUESTION, answer: secret + "x" });
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain(secret);
    expect(JSON.stringify(await eventsOf(sub, "user.security_answer_failed"))).not.toContain(secret);
    if (!postgres) return;
    const db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    try {
      const { rows } = await db.query("SELECT question, answer_hash FROM security_questions WHERE user_id = $1", [sub]);
      expect(rows[0].question).toBe(QUESTION);
      expect(rows[0].answer_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      expect(JSON.stringify(rows)).not.toContain(secret);
    } finally {
      await db.end();
    }
  });
});

describe("failed checks are limited like failed sign-ins", () => {
  it("30 parallel wrong answers: exactly 5 are evaluated, the rest are refused with 429, and then the right answer waits too", async () => {
    const { sub } = await createUser();
    await set(sub, { question: QUESTION, answer: ANSWER });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => check(sub, { question: QUESTION, answer: `guess ${i}` })));
    const evaluated = answers.filter((r) => r.status === 400);
    const refused = answers.filter((r) => r.status === 429);
    expect(evaluated.length).toBe(5);
    expect(refused.length).toBe(25);
    for (const r of evaluated) expect(r.body).toEqual(wrongBody("security answer not match"));
    for (const r of refused) {
      expect(r.body).toEqual({ type: "security_error", error: "too_many_attempts", desc: "too many failed security question checks" });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    const failed = await eventsOf(sub, "user.security_answer_failed");
    expect(failed.filter((e) => e.params.reason === "wrong_answer").length).toBe(5);

    const locked = await check(sub, { question: QUESTION, answer: ANSWER });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(20);
    // Another account's checks are not affected.
    const other = await createUser();
    await set(other.sub, { question: QUESTION, answer: ANSWER });
    expect((await check(other.sub, { question: QUESTION, answer: ANSWER })).status).toBe(204);
  });
});

describe("security question in user mode", () => {
  const SCOPES = "openid idp_api_usec idp_api_usec_chg";
  const userCall = (token: string, ip: string) => (method: string, url: string, body?: unknown) =>
    api(method, url, { token, body, headers: { "x-forwarded-for": ip, "user-agent": "SecQsnTest/1.0" } });

  it("works on `current`, the own subject and the own instanceId; another account's is refused", async () => {
    const account = await createUserWithPassword();
    const ip = uniqueIp();
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope: SCOPES }, { identifier: account.sub, password: account.password });
    const call = userCall(tokens.access_token, ip);
    const instanceId = (await readUser(account.sub)).body.meta.instanceId;

    expect((await call("POST", path(instanceId), { question: QUESTION, answer: ANSWER })).status).toBe(204);
    expect((await call("GET", path("current"))).body).toEqual({ question: QUESTION });
    expect((await call("GET", path(account.sub))).body).toEqual({ question: QUESTION });
    expect((await call("POST", path("current", "/check"), { question: QUESTION, answer: "ежик пушок" })).status).toBe(204);
    const [event] = await eventsOf(account.sub, "user.security_question_set");
    expect(event).toMatchObject({ ip, userAgent: "SecQsnTest/1.0" });

    const other = await createUser();
    await set(other.sub, { question: QUESTION, answer: ANSWER });
    expect((await call("GET", path(other.sub))).status).toBe(401);
    expect((await call("POST", path(other.sub), { question: "x", answer: "y" })).status).toBe(401);
    expect((await call("POST", path(other.instanceId), { question: "x", answer: "y" })).status).toBe(401);
    expect((await call("POST", path(other.sub, "/check"), { question: QUESTION, answer: ANSWER })).status).toBe(401);
    expect((await call("DELETE", path(other.sub))).status).toBe(401);
    expect((await read(other.sub)).body).toEqual({ question: QUESTION });

    expect((await call("DELETE", path("current"))).status).toBe(204);
    expect((await call("GET", path("current"))).status).toBe(404);
  });
});
