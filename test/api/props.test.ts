import { describe, expect, it } from "vitest";
import { createUser, createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, request, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

const sys = (scope: string) => systemToken("users-app", scope);
const url = (sub: string) => `/api/v3/users/${encodeURIComponent(sub)}/props`;
const read = async (sub: string) => api("GET", url(sub), { token: await sys("idp_api_sys_users") });
const change = async (sub: string, body: unknown) => api("POST", url(sub), { token: await sys("idp_api_sys_users_chg"), body });
const posOf = (r: { body: { errors: { pos: string }[] } }) => r.body.errors.map((e) => e.pos);

describe("GET|POST /api/v3/users/{subjectId}/props", () => {
  it("adds, changes and removes properties, answering the current object", async () => {
    const { sub } = await createUser();
    expect(await read(sub)).toMatchObject({ status: 200, body: {} });

    const added = await change(sub, { add: { lastVisit: 1_763_800_000, theme: "dark", beta: true, ratio: 0.25 } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ lastVisit: 1_763_800_000, theme: "dark", beta: true, ratio: 0.25 });

    const changed = await change(sub, { add: { theme: "light" }, remove: ["beta", "never-set"] });
    expect(changed.body).toEqual({ lastVisit: 1_763_800_000, theme: "light", ratio: 0.25 });
    expect((await read(sub)).body).toEqual(changed.body);
    expect((await change(sub, {})).body).toEqual(changed.body);
    expect((await change(sub, { remove: ["theme", "ratio", "lastVisit"] })).body).toEqual({});

    const events = await api("GET", `/api/v3/users/${sub}/audit?type=user.props_changed`, { token: await sys("idp_api_sys_uaud") });
    expect(events.body.events.map((e: { params: unknown }) => e.params)).toContainEqual({ added: ["theme"], removed: ["beta", "never-set"] });
  });

  it("keeps names such as __proto__ and constructor as plain properties", async () => {
    const { sub } = await createUser();
    const raw = '{"add":{"__proto__":"x","constructor":"y","toString":1}}';
    const headers = { authorization: `Bearer ${await sys("idp_api_sys_users_chg")}`, "content-type": "application/json" };
    const r = await request(url(sub), { method: "POST", headers, body: raw });
    expect(r.status).toBe(200);
    for (const text of [r.text, (await read(sub)).text]) {
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(["__proto__", "constructor", "toString"]);
      expect(Object.getOwnPropertyDescriptor(body, "__proto__")?.value).toBe("x");
      expect([body.constructor, body.toString]).toEqual(["y", 1]);
    }
  });

  it("refuses values that are not strings, numbers or booleans, and other bad input, naming the property; nothing changes", async () => {
    const { sub } = await createUser();
    await change(sub, { add: { keep: "me" } });
    const cases: [unknown, string[]][] = [
      [{ add: { a: null } }, ["add.a"]],
      [{ add: { a: { nested: 1 } } }, ["add.a"]],
      [{ add: { a: [1] } }, ["add.a"]],
      [{ add: { ok: 1, "": 2 } }, ["add."]],
      [{ add: { ["n".repeat(129)]: 1 } }, [`add.${"n".repeat(129)}`]],
      [{ add: { big: "v".repeat(1025) } }, ["add.big"]],
      [{ add: [1, 2] }, ["add"]],
      [{ add: "x" }, ["add"]],
      [{ remove: "keep" }, ["remove"]],
      [{ remove: [1] }, ["remove.0"]],
      [{ add: { keep: "new" }, remove: ["keep"] }, ["remove.keep"]],
      [{ add: { a: 1 }, other: true }, ["other"]],
      [[1], [""]],
      [{ add: { a: null, b: [], c: "ok" } }, ["add.a", "add.b"]],
    ];
    for (const [body, pos] of cases) {
      const r = await change(sub, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.type).toBe("input_error");
      expect(r.body.error).toBe("wrong_values");
      expect(posOf(r)).toEqual(pos);
      for (const e of r.body.errors) expect(e).toMatchObject({ type: "input_error", error: "wrong_value", desc: expect.any(String), params: {} });
    }
    expect((await change(sub, { add: { s: "v".repeat(1024), ["n".repeat(128)]: false } })).status).toBe(200);
    const nul = await api("POST", url(sub), { token: await sys("idp_api_sys_users_chg"), body: { add: { a: "x\u0000y" } } });
    expect(nul.status).toBe(400);
    expect((await read(sub)).body).toEqual({ keep: "me", s: "v".repeat(1024), ["n".repeat(128)]: false });
  });

  it("holds at most 100 properties (IDP_PROPS_MAX_COUNT), counting what is removed first", async () => {
    const { sub } = await createUser();
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, i]));
    expect(Object.keys((await change(sub, { add: hundred })).body)).toHaveLength(100);
    const over = await change(sub, { add: { one: "more" } });
    expect(over.status).toBe(400);
    expect(posOf(over)).toEqual(["add"]);
    expect(over.body.errors[0].desc).toBe("an account may have at most 100 properties");
    expect((await change(sub, { add: { one: "more" }, remove: ["p0"] })).status).toBe(200);
    expect(Object.keys((await read(sub)).body)).toHaveLength(100);
    const other = await createUser();
    const tooMany = await change(other.sub, { add: { ...hundred, x: 1 } });
    expect(posOf(tooMany)).toEqual(["add"]);
    expect((await read(other.sub)).body).toEqual({});
  });

  it("loses no update when 40 changes of one account run in parallel, and the count limit holds under the race", async () => {
    const { sub } = await createUser();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => change(sub, { add: { [`k${i}`]: i } })));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    const after = (await read(sub)).body;
    expect(Object.keys(after)).toHaveLength(40);
    for (let i = 0; i < 40; i++) expect(after[`k${i}`]).toBe(i);

    // 60 are there; 30 parallel changes adding two each can fit 20 of them at most.
    await change(sub, { add: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, true])) });
    const racing = await Promise.all(Array.from({ length: 30 }, (_, i) => change(sub, { add: { [`r${i}a`]: 1, [`r${i}b`]: 2 } })));
    const won = racing.filter((r) => r.status === 200).length;
    expect(won).toBe(20);
    expect(racing.filter((r) => r.status === 400).length).toBe(10);
    expect(Object.keys((await read(sub)).body)).toHaveLength(100);
  });

  it("answers 404 for an unknown account and needs the contract's scopes", async () => {
    expect((await read("no-such-" + Date.now())).status).toBe(404);
    expect((await change("no-such-" + Date.now(), { add: { a: 1 } })).status).toBe(404);
    const { sub } = await createUser();
    expect((await api("GET", url(sub), { token: await sys("idp_api_sys_usec") })).status).toBe(401);
    expect((await api("POST", url(sub), { token: await sys("idp_api_sys_users"), body: { add: { a: 1 } } })).status).toBe(401);
    expect((await read(sub)).body).toEqual({});
  });

  it("works in user mode on the user's own account only", async () => {
    const account = await createUserWithPassword();
    const ip = uniqueIp();
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope: "openid idp_api_user idp_api_user_chg" }, { identifier: account.sub, password: account.password });
    const headers = { "x-forwarded-for": ip, "user-agent": "PropsTest/1.0" };
    const mine = await api("POST", url("current"), { token: tokens.access_token, headers, body: { add: { lang: "ru" } } });
    expect(mine.body).toEqual({ lang: "ru" });
    expect((await api("GET", url(account.sub), { token: tokens.access_token, headers })).body).toEqual({ lang: "ru" });
    const other = await createUser();
    expect((await api("POST", url(other.sub), { token: tokens.access_token, headers, body: { add: { x: 1 } } })).status).toBe(401);
    expect((await api("GET", url(other.sub), { token: tokens.access_token, headers })).status).toBe(401);
    expect((await read(other.sub)).body).toEqual({});
  });
});
