import { describe, expect, it } from "vitest";
import { createUser, createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

const sys = (scope: string) => systemToken("users-app", scope);
const url = (sub: string) => `/api/v3/users/${encodeURIComponent(sub)}/state`;
const read = async (sub: string) => api("GET", url(sub), { token: await sys("idp_api_sys_usec") });
const assign = async (sub: string, body: unknown) => api("POST", url(sub), { token: await sys("idp_api_sys_usec_chg"), body });
const now = () => Math.floor(Date.now() / 1000);

describe("GET|POST /api/v3/users/{subjectId}/state", () => {
  it("a new account is initial; untouchable is assigned with and without till, and cancelled by till = now", async () => {
    const { sub } = await createUser();
    expect(await read(sub)).toMatchObject({ status: 200, body: { name: "initial" } });
    expect(Object.keys((await read(sub)).body)).toEqual(["name"]);

    const till = now() + 86_400;
    const r = await assign(sub, { name: "untouchable", till });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await read(sub)).body).toEqual({ name: "untouchable", till });

    expect((await assign(sub, { name: "untouchable" })).status).toBe(204);
    expect((await read(sub)).body).toEqual({ name: "untouchable" });

    expect((await assign(sub, { name: "untouchable", till: now() })).status).toBe(204);
    expect((await read(sub)).body).toEqual({ name: "initial" });

    const events = await api("GET", `/api/v3/users/${sub}/audit?type=user.state_changed`, { token: await sys("idp_api_sys_uaud") });
    expect(events.body.events.map((e: { params: { from: string; to: string } }) => `${e.params.from}>${e.params.to}`).reverse()).toEqual([
      "initial>untouchable",
      "untouchable>untouchable",
      "untouchable>initial",
    ]);
    expect(events.body.events[0].clientId).toBe("users-app");
  });

  it("assigns only untouchable, checks till, and changes nothing on bad input", async () => {
    const { sub } = await createUser();
    const cases: [unknown, string][] = [
      [{ name: "active" }, "name"],
      [{ name: "inactivityLock" }, "name"],
      [{ name: "initial", till: now() + 60 }, "name"],
      [{}, "name"],
      [{ name: "untouchable", till: "tomorrow" }, "till"],
      [{ name: "untouchable", till: 1.5 }, "till"],
      [{ name: "untouchable", till: -1 }, "till"],
      [{ name: "untouchable", till: 1e13 }, "till"],
      [{ name: "untouchable", on: 5 }, "on"],
    ];
    for (const [body, pos] of cases) {
      const r = await assign(sub, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ type: "input_error", error: "wrong_values" });
      expect(r.body.errors.map((e: { pos: string }) => e.pos)).toContain(pos);
    }
    const refused = await assign(sub, { name: "active" });
    expect(refused.body.errors[0]).toEqual({
      type: "input_error",
      error: "wrong_value",
      desc: "only untouchable can be assigned; the other states follow from sign-ins and the inactivity rule",
      pos: "name",
      params: {},
    });
    expect((await read(sub)).body).toEqual({ name: "initial" });
  });

  it("answers 404 for an unknown account; POST needs idp_api_sys_usec_chg and a system token", async () => {
    expect((await read("no-such-" + Date.now())).status).toBe(404);
    expect((await assign("no-such-" + Date.now(), { name: "untouchable" })).status).toBe(404);
    const { sub } = await createUser();
    expect((await api("GET", url(sub), { token: await sys("idp_api_sys_users") })).status).toBe(401);
    expect((await api("POST", url(sub), { token: await sys("idp_api_sys_usec"), body: { name: "untouchable" } })).status).toBe(401);

    const account = await createUserWithPassword();
    const ip = uniqueIp();
    const scope = "openid idp_api_usec idp_api_usec_chg";
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope }, { identifier: account.sub, password: account.password });
    const headers = { "x-forwarded-for": ip, "user-agent": "StateTest/1.0" };
    expect((await api("GET", url("current"), { token: tokens.access_token, headers })).body.name).toMatch(/^(initial|active)$/);
    expect((await api("GET", url(sub), { token: tokens.access_token, headers })).status).toBe(401);
    const own = await api("POST", url(account.sub), { token: tokens.access_token, headers, body: { name: "untouchable" } });
    expect(own.status).toBe(401);
    expect(own.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect((await read(account.sub)).body.name).not.toBe("untouchable");
  });
});
