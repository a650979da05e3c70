import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { changeUser, createUserWithPassword, readUser, regToken, uniquePhone } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, request, systemToken } from "../support/http.ts";
import { waitForMessage } from "../support/inbox.ts";
import { introspect, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

const UA = {
  phone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  laptop: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
};
const USER_SCOPES = "openid offline_access idp_api_user idp_api_usec_chg idp_api_uapps";

type TAccount = { sub: string; password: string };
type TTokens = { access_token: string; refresh_token: string };

async function signIn(account: TAccount, ua = UA.laptop, scope = USER_SCOPES): Promise<{ browser: Browser; tokens: TTokens }> {
  const browser = new Browser({ "user-agent": ua, "x-forwarded-for": uniqueIp() });
  const { tokens } = await webTokens(browser, { scope }, { identifier: account.sub, password: account.password });
  return { browser, tokens };
}

const me = (token: string) => api("GET", "/api/v3/users/current", { token });
const refresh = (t: TTokens) => tokenAs("web", { grant_type: "refresh_token", refresh_token: t.refresh_token });
const instanceOf = async (sub: string): Promise<string> => (await readUser(sub)).body.meta.instanceId;
const sysToken = () => systemToken("users-app", "idp_api_sys_usec_chg");
const appsOf = async (sub: string) => (await api("GET", `/api/v3/users/${sub}/apps`, { token: await systemToken("users-app", "idp_api_sys_uapps") })).body as { id: string; name: string }[];
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

async function pswd(sub: string, body: unknown, opts: { token?: string; headers?: Record<string, string>; instanceId?: string } = {}) {
  const token = opts.token ?? (await sysToken());
  return api("POST", `/api/v3/users/${opts.instanceId ?? (await instanceOf(sub))}/pswd`, { token, body, headers: { "accept-language": "en", ...opts.headers } });
}

async function signedIn(browser: Browser): Promise<boolean> {
  const page = await browser.open(webAuthorization({ scope: USER_SCOPES }).url);
  return page.location?.startsWith(WEB.redirectUri) ?? false;
}

const policyItem = (rule: string, desc: string, params: Record<string, unknown> = {}) => ({
  type: "input_error",
  error: "password_policy_violated",
  desc,
  pos: "password",
  params: { rule, ...params },
});

describe("POST /api/v3/users/{instanceId}/pswd", () => {
  it("user mode: the change ends sessions and refuses every older token, the IDP-CI-UA-ID device excepted", async () => {
    const account = await createUserWithPassword("first correct horse");
    const phone = await signIn(account, UA.phone);
    const laptop = await signIn(account, UA.laptop);
    const phoneId = (await appsOf(account.sub)).find((d) => d.name === "Safari, iOS")!.id;

    const r = await pswd(account.sub, { current: account.password, password: "second correct horse" }, { token: phone.tokens.access_token, headers: { "IDP-CI-UA-ID": phoneId } });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");

    const refused = await me(laptop.tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "revoked_access_token" });
    expect((await introspect(laptop.tokens.access_token)).body).toEqual({ active: false });
    expect((await refresh(laptop.tokens)).body.error).toBe("invalid_grant");
    expect(await signedIn(laptop.browser)).toBe(false);
    expect((await appsOf(account.sub)).map((d) => d.id)).toEqual([phoneId]);

    expect((await me(phone.tokens.access_token)).status).toBe(200);
    expect((await refresh(phone.tokens)).status).toBe(200);
    expect(await signedIn(phone.browser)).toBe(true);

    const changed = await eventsOf(account.sub, "user.password_changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]!.params).toMatchObject({ mode: "user", generated: false, devicesForgotten: 1 });

    // The old password no longer signs in; the new one does (a second later: iat has one-second precision).
    await expect(signIn(account)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await signIn({ sub: account.sub, password: "second correct horse" });
    expect((await me(again.tokens.access_token)).status).toBe(200);
  });

  it("system mode: an old token gets 401 on the next call, refresh fails, every session is gone", async () => {
    const account = await createUserWithPassword("first correct horse");
    const { browser, tokens } = await signIn(account);
    expect((await me(tokens.access_token)).status).toBe(200);
    expect((await pswd(account.sub, { password: "set by the administrator 1" })).status).toBe(204);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens)).body.error).toBe("invalid_grant");
    expect(await signedIn(browser)).toBe(false);
    expect(await appsOf(account.sub)).toEqual([]);
    // The password is not an attribute: the account's version stays.
    expect(await instanceOf(account.sub)).toBe(account.instanceId);
  });

  it("generates a password, sends it by SMS to the phone attribute, and it signs in", async () => {
    const account = await createUserWithPassword("first correct horse");
    const phone = uniquePhone();
    expect((await changeUser(await instanceOf(account.sub), { phone_number: { value: phone, vrf: true } })).status).toBe(200);

    expect((await pswd(account.sub, { sendPswdToAttr: "phone_number" })).status).toBe(204);
    const sms = await waitForMessage(phone);
    const password = /^Your new password: (\S+)\. /.exec(sms.text)?.[1];
    expect(password).toMatch(/^\S{16}$/);

    await new Promise((r) => setTimeout(r, 1_100));
    const { tokens } = await signIn({ sub: account.sub, password: password! });
    expect((await me(tokens.access_token)).status).toBe(200);
    expect((await eventsOf(account.sub, "user.password_changed"))[0]!.params).toMatchObject({ mode: "system", generated: true, sentTo: "phone_number" });

    // Secrets never reach the log or the audit trail.
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toContain(password!);
    expect(log).not.toContain("first correct horse");
    expect(JSON.stringify(await eventsOf(account.sub, "user.password_changed"))).not.toContain(password!);
  });

  it("refuses a bad sendPswdToAttr with wrong_value and changes nothing", async () => {
    const account = await createUserWithPassword("first correct horse");
    for (const attr of ["phone_number", "family_name"]) {
      const r = await pswd(account.sub, { password: "would be new 123", sendPswdToAttr: attr });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ type: "input_error", error: "wrong_values", errors: [{ type: "input_error", error: "wrong_value", desc: expect.any(String), pos: "sendPswdToAttr", params: {} }] });
    }
    await signIn(account);
  });

  it("answers a policy violation with the contract's body, one item per rule", async () => {
    const account = await createUserWithPassword("first correct horse");
    const short = await pswd(account.sub, { password: "short" });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ type: "input_error", error: "wrong_values", errors: [policyItem("to_short", "The password must be at least 15 characters long", { low: 15 })] });
    const common = await pswd(account.sub, { password: "1qaz2wsx3edc4rfv" }, { headers: { "accept-language": "ru" } });
    expect(common.body.errors).toEqual([policyItem("in_password_dic", "Это один из самых распространённых паролей, его легко подобрать")]);
    const same = await pswd(account.sub, { password: "first correct horse" });
    expect(same.body.errors).toEqual([policyItem("eq_current", "The new password is the same as the current one")]);
    expect((await pswd(account.sub, { password: "x".repeat(1025) })).body.errors[0].params).toEqual({ rule: "too_long", high: 1024 });
    // A passphrase of 64 characters and any script is welcome, untruncated.
    const long = "Длинная фраза из слов, которую легко запомнить, и в ней 64 знака!".slice(0, 64);
    expect((await pswd(account.sub, { password: long })).status).toBe(204);
    await new Promise((r) => setTimeout(r, 1_100));
    await signIn({ sub: account.sub, password: long });
    await expect(signIn({ sub: account.sub, password: long.slice(0, 63) })).rejects.toThrow();
  });

  it("user mode: a wrong current password is 401 invalid_credential and counts toward the sign-in limit", async () => {
    const account = await createUserWithPassword("first correct horse");
    const { tokens } = await signIn(account);
    const ip = uniqueIp();
    const missing = await pswd(account.sub, { password: "brand new words 1" }, { token: tokens.access_token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ error: "wrong_value", pos: "current" });
    for (let i = 0; i < 5; i++) {
      const wrong = await pswd(account.sub, { current: `guess ${i}`, password: "brand new words 1" }, { token: tokens.access_token, headers: { "x-forwarded-for": ip } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ type: "security_error", error: "invalid_credential", desc: "wrong current password" });
    }
    const locked = await pswd(account.sub, { current: account.password, password: "brand new words 1" }, { token: tokens.access_token, headers: { "x-forwarded-for": ip } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.body.error).toBe("too_many_attempts");
    // Nothing changed: the token still works, and the failures are in the trail.
    expect((await me(tokens.access_token)).status).toBe(200);
    expect(await eventsOf(account.sub, "user.password_change_failed")).toHaveLength(5);
  });

  it("user mode: wrong current passwords relayed with a forged X-Forwarded-For never lock that address out of the sign-in page", async () => {
    // The address an application relays is only its word: an attacker's app could name a victim's
    // address. 25 failures over five accounts is more than the per-address limit of the sign-in page (20).
    const victimIp = uniqueIp();
    for (let a = 0; a < 5; a++) {
      const account = await createUserWithPassword("first correct horse");
      const { tokens } = await signIn(account);
      const opts = { token: tokens.access_token, headers: { "x-forwarded-for": victimIp } };
      for (let i = 0; i < 5; i++) expect((await pswd(account.sub, { current: `guess ${i}`, password: "brand new words 1" }, opts)).status).toBe(401);
      // That account's checks are what the failures used up.
      expect((await pswd(account.sub, { current: account.password, password: "brand new words 1" }, opts)).status).toBe(429);
    }
    const victim = await createUserWithPassword("victim correct horse");
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": victimIp }), { scope: "openid" }, { identifier: victim.sub, password: victim.password });
    expect(tokens.access_token).toBeTruthy();
  });

  it("checks scopes, mode, subject, version and the body", async () => {
    const account = await createUserWithPassword("first correct horse");
    const other = await createUserWithPassword("first correct horse");
    const { tokens } = await signIn(account);
    const narrow = await signIn(account, UA.laptop, "openid idp_api_user");
    expect((await pswd(account.sub, { current: account.password, password: "brand new words 1" }, { token: narrow.tokens.access_token })).status).toBe(401);
    expect((await pswd(account.sub, { password: "brand new words 1" }, { token: await systemToken("users-app", "idp_api_sys_users_chg") })).status).toBe(401);
    const foreign = await pswd(other.sub, { current: other.password, password: "brand new words 1" }, { token: tokens.access_token });
    expect(foreign.status).toBe(401);
    expect(foreign.body.desc).toBe("wrong_subject");
    expect((await pswd(account.sub, { password: "brand new words 1" }, { instanceId: "bm9ib2R5.AAAAAAAAAAAAAAAA" })).status).toBe(404);
    expect((await pswd(account.sub, { password: 12345678 })).status).toBe(400);
    expect((await pswd(account.sub, { password: "brand new words 1", extra: true })).status).toBe(400);
    expect((await pswd(account.sub, ["x"])).status).toBe(400);
    expect((await me(tokens.access_token)).status).toBe(200);
    await signIn(other);
  });

  it("racing changes of one password: one wins, the others get the single id_store item, and the winner's password signs in", async () => {
    const account = await createUserWithPassword("first correct horse");
    const instanceId = await instanceOf(account.sub);
    const token = await sysToken();
    const tries = ["racing number one 111", "racing number two 222", "racing number three 333", "racing number four 444"];
    const answers = await Promise.all(tries.map((password) => pswd(account.sub, { password }, { token, instanceId })));
    const won = tries.filter((_, i) => answers[i]!.status === 204);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 204)) {
      expect(a.status).toBe(400);
      expect(a.body).toEqual({
        type: "input_error",
        error: "password_policy_violated",
        desc: "The password store refused the change: another request changed the password just now; try again",
        pos: "password",
        params: { rule: "id_store" },
      });
    }
    await new Promise((r) => setTimeout(r, 1_100));
    const outcomes = await Promise.all(won.map((password) => signIn({ sub: account.sub, password }).then(() => true, () => false)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });
});

describe("the password policy elsewhere", () => {
  it("registration refuses a common password, each rule in the registration's error shape", async () => {
    const r = await api("PUT", "/reg/api/v3/users", {
      token: await regToken(),
      body: { user: { attrs: { family_name: "Словарёв" }, credentials: { password: "1qaz2wsx3edc4rfv" } } },
      headers: { "accept-language": "en" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ errors: [{ errMsg: "This is one of the most common passwords and easy to guess", field: "password" }], context: "" });
  });

  it("the OpenAPI document describes the endpoint: both modes' scopes, the body with examples, the policy and id_store bodies", async () => {
    const doc = (await request("/api/openapi.json")).body;
    const op = doc.paths["/api/v3/users/{instanceId}/pswd"].post;
    expect(op["x-scopes"]).toEqual({ user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"] });
    expect(Object.keys(op.responses).sort()).toEqual(["204", "400", "401", "404", "409", "413", "415", "429", "500", "503"]);
    expect(op.responses["401"].description).toContain("invalid_credential");
    const body = doc.components.schemas.ChangePasswordRequest;
    expect(Object.keys(body.properties).sort()).toEqual(["current", "password", "sendPswdToAttr"]);
    expect(body.examples).toHaveLength(2);
    expect(doc.components.schemas.PasswordPolicyViolation.example.errors[0].params).toEqual({ rule: "to_short", low: 15 });
    expect(doc.components.schemas.PasswordStoreRefused.example.params).toEqual({ rule: "id_store" });
  });
});
