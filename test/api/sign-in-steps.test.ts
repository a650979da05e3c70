import { describe, expect, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { alertOf, Browser, uniqueIp, type TPage } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { independentTotp } from "../support/independent-otp.ts";
import { callbackParams, tokenAs, WEB, webAuthorization } from "../support/oidc.ts";

// The sign-in's steps after the password (server/sign-in/login-steps.routes.ts): the second factor
// with a code computed by an implementation that is not ours, the password change an administrator asked for, and the refusals
// said only once the password was right (password sign-in turned off).

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const modes = async (sub: string, body?: unknown) =>
  body === undefined
    ? api("GET", `/api/v3/users/${sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec") })
    : api("POST", `/api/v3/users/${sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body });

/** An account with a password and a TOTP generator bound (no code: idp_api_otp_full_access), second factor on. */
async function accountWithSecondFactor() {
  const account = await createUserWithPassword();
  const bound = await api("POST", "/api/v3/users/totps/attach", {
    token: await systemToken("otp-app", "idp_api_otp_full_access"),
    body: { subjectId: account.sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30 },
  });
  expect(bound.status).toBe(204);
  expect((await modes(account.sub, { requiredFactor: 2 })).status).toBe(200);
  return account;
}

/** From the authorization request through the password form; returns the page after the password. */
async function afterPassword(browser: Browser, account: { sub: string; password: string }) {
  const { url, verifier } = webAuthorization({ scope: "openid" });
  const form = await browser.open(url);
  expect(form.url).toContain("/login?");
  return { page: await submitStep(browser, form, { identifier: account.sub, password: account.password }), verifier };
}

/** A browser of its own address (per-address counters never meet), in English. */
const browserAt = () => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });

/** Submits a step's form; a consent screen (rp-web is not first-party) is allowed on the way back. */
async function submitStep(browser: Browser, page: TPage, fields: Record<string, string>): Promise<TPage> {
  const next = await browser.submit(page, fields);
  return next.status === 200 && next.url.includes("/consent?") ? browser.submit(next, { decision: "allow" }) : next;
}

/** A six-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

const exchange = (page: TPage, verifier: string) =>
  tokenAs("web", { grant_type: "authorization_code", code: callbackParams(page).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });

describe("the second factor at sign-in (requiredFactor 2)", () => {
  it("asks for the generator's code after the password, refuses a wrong one, and signs in with amr pwd+otp+mfa", async () => {
    const account = await accountWithSecondFactor();
    const browser = browserAt();
    const { page, verifier } = await afterPassword(browser, account);
    expect(page.status).toBe(200);
    expect(page.url).toContain("/login/otp?");
    // No session before the second step: the browser holds no session cookie yet.
    expect(browser.cookies.has("idp_session")).toBe(false);
    expect(page.text).toContain('autocomplete="one-time-code"');

    const wrong = await submitStep(browser, page, { otp: otherCode(independentTotp(SECRET)) });
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toMatch(/code/i);

    const done = await submitStep(browser, wrong, { otp: independentTotp(SECRET) });
    expect(done.status).toBe(303);
    const tokens = await exchange(done, verifier);
    expect(tokens.status).toBe(200);
    const claims = JSON.parse(Buffer.from(tokens.body.id_token.split(".")[1], "base64url").toString());
    expect(claims.sub).toBe(account.sub);
    expect(claims.amr).toEqual(["pwd", "otp", "mfa"]);
  });

  it("refuses a code used once already (another sign-in in the same time step)", async () => {
    const account = await accountWithSecondFactor();
    const [a, b] = [browserAt(), browserAt()];
    const [atA, atB] = [await afterPassword(a, account), await afterPassword(b, account)];
    const code = independentTotp(SECRET);
    expect((await submitStep(a, atA.page, { otp: code })).status).toBe(303);
    const replayed = await submitStep(b, atB.page, { otp: code });
    expect(replayed.status).toBe(400);
    expect(b.cookies.has("idp_session")).toBe(false);
  });

  it("counts wrong and missing codes like wrong passwords: the account locks out, whatever the code", async () => {
    const account = await accountWithSecondFactor();
    const browser = browserAt();
    let { page } = await afterPassword(browser, account);
    for (let i = 0; i < 5; i++) {
      page = await submitStep(browser, page, { otp: i % 2 ? "" : "12345" });
      expect(page.status).toBe(400);
    }
    const locked = await submitStep(browser, page, { otp: independentTotp(SECRET) });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(browser.cookies.has("idp_session")).toBe(false);
  });
});

describe("the password change an administrator asked for (needPasswordChange)", () => {
  it("asks for a new password after the right one, applies the policy, then signs in and clears the mode", async () => {
    const account = await createUserWithPassword();
    expect((await modes(account.sub, { needPasswordChange: true })).body).toMatchObject({ needPasswordChange: true });
    const browser = browserAt();
    const { page, verifier } = await afterPassword(browser, account);
    expect(page.status).toBe(200);
    expect(page.url).toContain("/login/password?");
    expect(browser.cookies.has("idp_session")).toBe(false);

    const mismatch = await submitStep(browser, page, { password: "a new long passphrase", repeat: "another passphrase" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("The two passwords differ.");
    const short = await submitStep(browser, mismatch, { password: "short", repeat: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/at least 15 characters/);
    const same = await submitStep(browser, short, { password: account.password, repeat: account.password });
    expect(same.status).toBe(400);

    const done = await submitStep(browser, same, { password: "a new long passphrase", repeat: "a new long passphrase" });
    expect(done.status).toBe(303);
    expect((await exchange(done, verifier)).status).toBe(200);
    expect((await modes(account.sub)).body).toMatchObject({ needPasswordChange: false });

    // The new password is the one that works now, and no second change is asked for.
    const again = await afterPassword(browserAt(), { sub: account.sub, password: "a new long passphrase" });
    expect(again.page.status).toBe(303);
    expect(callbackParams(again.page).get("code")).toBeTruthy();
    const old = await afterPassword(browserAt(), account);
    expect(old.page.status).toBe(400);
  });

  it("comes after the second factor when both are on", async () => {
    const account = await accountWithSecondFactor();
    expect((await modes(account.sub, { needPasswordChange: true })).status).toBe(200);
    const browser = browserAt();
    const { page, verifier } = await afterPassword(browser, account);
    expect(page.url).toContain("/login/otp?");
    const next = await submitStep(browser, page, { otp: independentTotp(SECRET) });
    expect(next.url).toContain("/login/password?");
    const done = await submitStep(browser, next, { password: "yet another passphrase", repeat: "yet another passphrase" });
    const tokens = await exchange(done, verifier);
    const claims = JSON.parse(Buffer.from(tokens.body.id_token.split(".")[1], "base64url").toString());
    expect(claims.amr).toEqual(["pwd", "otp", "mfa"]);
  });
});

describe("refusals said once the password was right", () => {
  it("refuses password sign-in when methodsLocked holds password, and a wrong password as before", async () => {
    const account = await createUserWithPassword();
    expect((await modes(account.sub, { methodsLocked: ["password"] })).status).toBe(200);
    const browser = browserAt();
    const right = await afterPassword(browser, account);
    expect(right.page.status).toBe(403);
    expect(alertOf(right.page.text)).toContain("Signing in with a password is turned off");
    const wrong = await afterPassword(browser, { sub: account.sub, password: "not the password" });
    expect(wrong.page.status).toBe(400);
    expect(alertOf(wrong.page.text)).toBe("Wrong username or password.");
    expect(browser.cookies.has("idp_session")).toBe(false);

    expect((await modes(account.sub, { methodsLocked: [] })).status).toBe(200);
    expect((await afterPassword(browser, account)).page.status).toBe(303);
  });
});
