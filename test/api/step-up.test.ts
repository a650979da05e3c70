import { describe, expect, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, base, systemToken } from "../support/http.ts";
import { independentTotp } from "../support/independent-otp.ts";
import { serverOfItsOwn } from "../support/own-server.ts";
import { callbackParams, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

// Changes of factors through the REST API in user mode need what the portal asks: a recent sign-in
// (IDP_REAUTH_MAX_AGE), with the second factor when it is on. The access token says when and how the
// person signed in (auth_time, amr). Each refusal leaves everything as it was.

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const SCOPE = "openid idp_api_usec idp_api_usec_chg idp_api_ufa_link idp_api_ufa_chg idp_api_user_chg";
type TAccount = { sub: string; password: string };

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
const sysModes = async (sub: string, origin = base()) =>
  (await api("GET", `/api/v3/users/${sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec", origin), origin })).body;
const instanceOf = async (sub: string, origin = base()) =>
  (await api("GET", `/api/v3/users/${sub}`, { token: await systemToken("users-app", "idp_api_sys_users", origin), origin })).body.meta.instanceId as string;
const question = async (sub: string, origin = base()) =>
  api("GET", `/api/v3/users/${sub}/secQsn`, { token: await systemToken("otp-app", "idp_api_sys_usec", origin), origin });

/** The factor changes a stolen token would try, each of which must be refused the same way. */
function attempts(token: string, sub: string, origin = base()) {
  const call = (method: string, p: string, body?: unknown) => api(method, p, { token, body, origin });
  return {
    secondFactorOff: () => call("POST", "/api/v3/users/current/auth", { requiredFactor: null }),
    newQuestion: () => call("POST", "/api/v3/users/current/secQsn", { question: "Pet?", answer: "attacker's answer" }),
    dropQuestion: () => call("DELETE", `/api/v3/users/${sub}/secQsn`),
    removeGenerator: () => call("DELETE", `/api/v3/users/current/totps/totp_${sub}`),
    bindExternal: () => call("POST", "/api/v3/users/current/fa/bind", { fp: "oidc:ext", callback: WEB.redirectUri }),
    unbindExternal: () => call("DELETE", "/api/v3/users/current/fa/oidc/corp/some-sid"),
    newEmail: async () => call("POST", `/api/v3/users/${await instanceOf(sub, origin)}`, { email: { value: "thief@example.test", vrf: false } }),
  };
}

async function withSecondFactor(account: TAccount, origin = base()) {
  const bound = await api("POST", "/api/v3/users/totps/attach", {
    token: await systemToken("otp-app", "idp_api_otp_full_access", origin),
    body: { subjectId: account.sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30 },
    origin,
  });
  expect(bound.status).toBe(204);
  const on = await api("POST", `/api/v3/users/${account.sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg", origin), body: { requiredFactor: 2 }, origin });
  expect(on.status).toBe(200);
}

/** A sign-in through the form with the password and then the generator's code (from an implementation that is not ours). */
async function signInWithCode(account: TAccount): Promise<string> {
  const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
  const { url, verifier } = webAuthorization({ scope: SCOPE });
  let page = await browser.submit(await browser.open(url), { identifier: account.sub, password: account.password });
  expect(page.url).toContain("/login/otp?");
  page = await browser.submit(page, { otp: independentTotp(SECRET) });
  if (page.status === 200 && page.url.includes("/consent?")) page = await browser.submit(page, { decision: "allow" });
  const r = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(page).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
  expect(r.status).toBe(200);
  return r.body.access_token;
}

describe("factor changes in user mode with the second factor on", () => {
  it("are refused to a token whose sign-in did not pass the second factor, and allowed after one that did", async () => {
    const account = await createUserWithPassword();
    // Signed in with the password alone while the second factor was off; it is turned on afterwards.
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: SCOPE }, { identifier: account.sub, password: account.password });
    const claims = claimsOf(tokens.access_token);
    expect(claims.amr).toEqual(["pwd"]);
    expect(Math.abs(Number(claims.auth_time) - Date.now() / 1000)).toBeLessThan(60);
    await withSecondFactor(account);

    const weak = attempts(tokens.access_token, account.sub);
    for (const [what, attempt] of Object.entries(weak)) {
      const r = await attempt();
      expect(r.status, what).toBe(403);
      expect(r.body, what).toEqual({ type: "security_error", error: "second_factor_required", desc: "this change needs a sign-in with the second factor" });
    }
    expect((await sysModes(account.sub)).requiredFactor).toBe(2);
    expect((await question(account.sub)).status).toBe(404);

    const strong = await signInWithCode(account);
    expect(claimsOf(strong).amr).toEqual(["pwd", "otp", "mfa"]);
    const off = await attempts(strong, account.sub).secondFactorOff();
    expect(off.status, off.text).toBe(200);
    expect((await sysModes(account.sub)).requiredFactor).toBeUndefined();
  });
});

describe("factor changes in user mode with an old sign-in", () => {
  // A server of its own whose re-authentication window is a few seconds, so that a sign-in can age.
  const own = serverOfItsOwn("stepup", { IDP_REAUTH_MAX_AGE: "4" });

  it("are refused once the sign-in is older than IDP_REAUTH_MAX_AGE, and nothing changes", async () => {
    const origin = own().baseUrl;
    const reg = await api("PUT", "/reg/api/v3/users", {
      token: await systemToken("users-app", "idp_api_sys_users_reg", origin),
      body: { user: { attrs: { sub: `aged-${Date.now()}`, family_name: "Старов" }, credentials: { password: "correct horse battery" } } },
      origin,
    });
    expect(reg.status).toBe(200);
    const account = { sub: reg.body.subject as string, password: "correct horse battery" };
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }, origin), { scope: SCOPE }, { identifier: account.sub, password: account.password });
    const tries = attempts(tokens.access_token, account.sub, origin);
    // Fresh: allowed.
    expect((await tries.newQuestion()).status).toBe(204);
    const before = (await question(account.sub, origin)).body;

    await expect.poll(async () => (await tries.newQuestion()).status, { timeout: 20_000, interval: 500 }).toBe(403);
    for (const [what, attempt] of Object.entries(tries)) {
      const r = await attempt();
      expect(r.status, what).toBe(403);
      expect(r.body, what).toMatchObject({ type: "security_error", error: "reauthentication_required" });
    }
    expect((await question(account.sub, origin)).body).toEqual(before);
    expect((await api("GET", `/api/v3/users/${account.sub}`, { token: await systemToken("users-app", "idp_api_sys_users", origin), origin })).body.email).toBeUndefined();
    // The token itself still works for what is not a change of factors.
    expect((await api("GET", "/api/v3/users/current/auth", { token: tokens.access_token, origin })).status).toBe(200);
  });
});
