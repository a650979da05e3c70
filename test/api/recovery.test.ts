import { describe, expect, it } from "vitest";
import { changeUser, createUserWithPassword, unique, uniquePhone } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { independentTotp } from "../support/independent-otp.ts";
import { codeOf, delivered } from "../support/inbox.ts";
import { callbackParams, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

// "Forgot password?" on the sign-in page (server/recovery/): a code to a confirmed e-mail or phone,
// read from the real SMTP server and SMS webhook on loopback; the second factor when it is on; the new
// password under the policy; every session and token ended; the person told. And what an attacker
// tries: unknown addresses (no enumeration), many requests (throttled), many guesses, parallel use.

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const NEW_PASSWORD = "a brand new recovery passphrase";

/** An account with a password, a confirmed e-mail and a confirmed phone. */
async function account() {
  const a = await createUserWithPassword("the forgotten passphrase");
  const email = `${unique("rec-")}@example.test`;
  const phone = uniquePhone();
  const set = await changeUser(a.instanceId, { email: { value: email, vrf: true }, phone_number: { value: phone, vrf: true } });
  expect(set.status).toBe(200);
  return { ...a, email, phone };
}

const browserAt = (lang = "en") => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": lang });

/** The sign-in page of a new authorization, and its "Forgot password?" page. */
async function recoverPage(browser: Browser) {
  const { url, verifier } = webAuthorization({ scope: "openid" });
  const login = await browser.open(url);
  expect(login.url).toContain("/login?");
  const link = /<a href="([^"]*\/login\/recover\?[^"]*)">/.exec(login.text)?.[1];
  expect(link, "the sign-in page links to recovery").toBeTruthy();
  const page = await browser.open(new URL(link!.replace(/&amp;/g, "&"), login.url).toString());
  expect(page.status).toBe(200);
  return { page, verifier };
}

/** Submits the page's form without following the answer's redirect: the answer as it is. */
function post(browser: Browser, page: TPage, fields: Record<string, string>): Promise<TPage> {
  const form = formOf(page.text);
  const body = new URLSearchParams({ ...form.hidden, ...fields }).toString();
  return browser.fetch(new URL(form.action, page.url).toString(), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
}

/** Asks for a code at a new "Forgot password?" page of `browser`: the code page, and the code that came. */
async function codePageFor(browser: Browser, email: string) {
  const { page } = await recoverPage(browser);
  const codePage = await browser.submit(page, { address: email });
  return { codePage, code: codeOf(await messageLike(email, RESET_CODE)) };
}

/** Asks for a code; the page the browser lands on. */
const ask = (browser: Browser, page: TPage, address: string) => browser.submit(page, { address });

const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

const claimsOf = (idToken: string) => JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString());

/** The first message to `to` whose subject or text matches `like`, once it arrived. */
async function messageLike(to: string, like: RegExp) {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const found = (await delivered(to)).find((m) => like.test(m.subject ?? "") || like.test(m.text));
    if (found) return found;
  }
  throw new Error(`no message like ${like} to ${to}`);
}
const RESET_CODE = /password reset code|Код восстановления доступа|Код для восстановления доступа/;

/** A six-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

/** A page as a stranger compares it: without the flow's id, the CSRF field, the address typed. */
const shape = (page: TPage, ...typed: string[]) => typed.reduce((t, s) => t.split(s).join("ADDRESS"), page.text).replace(/flow=[\w-]+/g, "flow=F").replace(/name="csrf_token" value="[^"]*"/g, "csrf");

describe("password recovery by e-mail", () => {
  it("sends a code to the confirmed address, sets a new password under the policy, ends every other sign-in, and tells the person", async () => {
    const a = await account();
    // A sign-in elsewhere, with tokens, that the recovery must end.
    const elsewhere = await webTokens(browserAt(), { scope: "openid offline_access" }, { identifier: a.sub, password: a.password });
    const browser = browserAt();
    const { page, verifier } = await recoverPage(browser);
    expect(page.text).toContain("Reset your password");

    // Typed as people type it: other case, spaces around.
    const codePage = await ask(browser, page, `  ${a.email.toUpperCase()} `);
    expect(codePage.status).toBe(200);
    expect(codePage.url).toContain("/login/recover/code?");
    expect(codePage.text).toContain(`If an account has ${a.email} as its confirmed e-mail address, we sent a code to it.`);
    const mail = await messageLike(a.email, RESET_CODE);
    expect(mail.subject).toBe("Your password reset code");
    const code = codeOf(mail);
    // No code went to the phone: the code goes where the person asked.
    expect((await delivered(a.phone)).filter((m) => RESET_CODE.test(m.text))).toEqual([]);

    const wrong = await browser.submit(codePage, { code: otherCode(code) });
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe("The code is wrong. Tries left: 2.");
    // No session, and the password is still the old one, until the new password is set.
    expect(browser.cookies.has("idp_session")).toBe(false);

    const newPassword = await browser.submit(wrong, { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(newPassword.status).toBe(200);
    expect(newPassword.url).toContain("/login/recover/password?");
    expect(newPassword.text).toContain("Set a new password");
    expect(browser.cookies.has("idp_session")).toBe(false);

    const mismatch = await browser.submit(newPassword, { password: NEW_PASSWORD, repeat: "something else entirely" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("The two passwords differ.");
    const short = await browser.submit(mismatch, { password: "short", repeat: "short" });
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/at least 15 characters/);

    const done = await browser.submit(short, { password: NEW_PASSWORD, repeat: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/^https:\/\/rp\.example\.test\/callback\?/);
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(done).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const claims = claimsOf(tokens.body.id_token);
    expect(claims.sub).toBe(a.sub);
    expect(claims.amr).toEqual(["email"]);
    // The new sign-in's token works; the one from before the recovery does not, nor its refresh token.
    expect((await api("GET", "/oauth/me", { token: tokens.body.access_token })).status).toBe(200);
    expect((await api("GET", "/oauth/me", { token: elsewhere.tokens.access_token })).status).toBe(401);
    expect((await tokenAs("web", { grant_type: "refresh_token", refresh_token: elsewhere.tokens.refresh_token })).body.error).toBe("invalid_grant");

    // The old password is gone, the new one signs in.
    await expect(webTokens(browserAt(), {}, { identifier: a.sub, password: a.password })).rejects.toThrow();
    expect((await webTokens(browserAt(), {}, { identifier: a.sub, password: NEW_PASSWORD })).tokens.access_token).toBeTruthy();

    // Told at both confirmed contacts; the change and the sign-in are recorded.
    expect((await messageLike(a.email, /^Your password was reset$/)).text).toContain("Your password was reset.");
    expect((await messageLike(a.phone, /Your password was reset/)).text).toMatch(/^Your password was reset \(/);
    expect((await eventsOf(a.sub, "user.password_changed"))[0]!.params).toMatchObject({ mode: "system", by: "recovery", method: "email" });
    expect((await eventsOf(a.sub, "user.signed_in")).some((e) => e.params.method === "email" && e.params.by === "recovery")).toBe(true);
    expect((await eventsOf(a.sub, "user.recovery_code_failed")).length).toBe(1);
  });

  it("stops taking codes after three wrong ones: a new code has to be asked for", async () => {
    const a = await account();
    const browser = browserAt();
    const first = await codePageFor(browser, a.email);
    const code = first.code;
    let codePage = await browser.submit(first.codePage, { code: otherCode(code) });
    codePage = await browser.submit(codePage, { code: "12" });
    const spent = await browser.submit(codePage, { code: otherCode(String(Number(code) + 1)) });
    expect(spent.status).toBe(400);
    expect(alertOf(spent.text)).toBe("This code can no longer be used. Ask for a new one.");
    expect(spent.text).not.toContain('name="code"');
    // The right code, now, is refused too: the recovery is spent.
    const late = await post(browser, codePage, { code });
    expect(late.status).toBe(400);
    expect(browser.cookies.has("idp_session")).toBe(false);
  });
});

describe("password recovery where passwords are turned off", () => {
  it("refuses the new password when an administrator turned password sign-in off after the code, and changes nothing", async () => {
    const a = await account();
    const browser = browserAt();
    const { codePage, code } = await codePageFor(browser, a.email);
    const newPassword = await browser.submit(codePage, { code });
    expect(newPassword.url).toContain("/login/recover/password?");
    const locked = await api("POST", `/api/v3/users/${a.sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body: { methodsLocked: ["password"] } });
    expect(locked.status).toBe(200);
    const refused = await browser.submit(newPassword, { password: NEW_PASSWORD, repeat: NEW_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(/role="alert"[^>]*><ul><li>Signing in with a password is turned off for this account/);
    expect(browser.cookies.has("idp_session")).toBe(false);
    expect(await eventsOf(a.sub, "user.password_changed")).toEqual([]);
  });
});

describe("password recovery by phone, with the second factor on", () => {
  it("asks for the generator's code after the SMS code, then the new password, and records amr sms+otp+mfa", async () => {
    const a = await account();
    const attached = await api("POST", "/api/v3/users/totps/attach", {
      token: await systemToken("otp-app", "idp_api_otp_full_access"),
      body: { subjectId: a.sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30 },
    });
    expect(attached.status).toBe(204);
    const modes = await api("POST", `/api/v3/users/${a.sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body: { requiredFactor: 2 } });
    expect(modes.status).toBe(200);

    const browser = browserAt("ru");
    const { page, verifier } = await recoverPage(browser);
    expect(page.text).toContain("Восстановление пароля");
    const codePage = await ask(browser, page, `+7 ${a.phone.slice(1, 4)} ${a.phone.slice(4)}`);
    expect(codePage.text).toContain(`подтверждён номер +${a.phone}`);
    const sms = await messageLike(a.phone, RESET_CODE);
    expect(sms.text).toMatch(/^Код восстановления доступа: \d{6}\./);

    const otpPage = await browser.submit(codePage, { code: codeOf(sms) });
    expect(otpPage.status).toBe(200);
    expect(otpPage.url).toContain("/login/otp?");
    // The new password page is not reachable before the second factor passed.
    const skipped = await browser.fetch(otpPage.url.replace("/login/otp?", "/login/recover/password?"));
    expect(skipped.status).toBe(404);

    const newPassword = await browser.submit(otpPage, { otp: independentTotp(SECRET) });
    expect(newPassword.url).toContain("/login/recover/password?");
    expect(newPassword.text).toContain("Новый пароль");
    const signedIn = await browser.submit(newPassword, { password: NEW_PASSWORD, repeat: NEW_PASSWORD });
    // The first sign-in of this account to rp-web: it asks for consent, as any sign-in would.
    expect(signedIn.url).toContain("/consent?");
    const done = await browser.submit(signedIn, { decision: "allow" });
    expect(done.status).toBe(303);
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(done).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(claimsOf(tokens.body.id_token).amr).toEqual(["sms", "otp", "mfa"]);
  });
});

describe("what a stranger learns and can do", () => {
  it("answers an unknown address, an unconfirmed one and a known one alike, and sends only to the known one", async () => {
    const known = await account();
    const unconfirmed = await createUserWithPassword();
    const unconfirmedEmail = `${unique("unc-")}@example.test`;
    expect((await changeUser(unconfirmed.instanceId, { email: { value: unconfirmedEmail, vrf: false } })).status).toBe(200);
    const unknownEmail = `${unique("nobody-")}@example.test`;

    const pages: TPage[] = [];
    for (const address of [known.email, unconfirmedEmail, unknownEmail]) {
      const browser = browserAt();
      const { page } = await recoverPage(browser);
      const posted = await post(browser, page, { address });
      expect(posted.status).toBe(303);
      expect(posted.location).toContain("/login/recover/code?");
      const codePage = await browser.open(posted.location!);
      expect(codePage.status).toBe(200);
      pages.push(codePage);
      // A guess at the code is refused in the same words wherever the address led.
      const guess = await browser.submit(codePage, { code: "123456" });
      expect(guess.status).toBe(400);
      expect(alertOf(guess.text)).toBe("The code is wrong. Tries left: 2.");
    }
    const [a, b, c] = [shape(pages[0]!, known.email), shape(pages[1]!, unconfirmedEmail), shape(pages[2]!, unknownEmail)];
    expect(b).toBe(a);
    expect(c).toBe(a);
    await messageLike(known.email, RESET_CODE);
    // The unconfirmed address got its confirmation code when it was set, and nothing since.
    expect((await delivered(unconfirmedEmail)).filter((m) => RESET_CODE.test(m.subject ?? ""))).toEqual([]);
    expect(await delivered(unknownEmail)).toEqual([]);
  });

  it("throttles codes per address, whether an account has it or not, with Retry-After", async () => {
    for (const address of [(await account()).email, `${unique("nobody-")}@example.test`]) {
      const statuses: number[] = [];
      let last: TPage | undefined;
      for (let i = 0; i < 4; i++) {
        // A new browser address each time: the address typed is what is counted.
        const browser = browserAt();
        const { page } = await recoverPage(browser);
        last = await post(browser, page, { address });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([303, 303, 303, 429]);
      expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(alertOf(last!.text)).toMatch(/^Too many codes were asked for\. Try again in \d+ (s|min)\.$/);
    }
  });

  it("uses a code once: of 8 parallel submissions of the right code exactly one goes on", async () => {
    const a = await account();
    const browser = browserAt();
    const { codePage, code } = await codePageFor(browser, a.email);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(browser, codePage, { code })));
    const on = answers.filter((r) => r.status === 303);
    expect(on).toHaveLength(1);
    expect(on[0]!.location).toContain("/login/recover/password?");
    // The others are refused: a spent try (400), or a flow that has moved on past its first step (404).
    expect(answers.filter((r) => r.status === 400 || r.status === 404)).toHaveLength(7);
    expect((await eventsOf(a.sub, "user.recovery_code_confirmed")).length).toBe(1);
  });

  it("refuses a form from another browser, and a code page of a flow it did not start", async () => {
    const browser = browserAt();
    const { page } = await recoverPage(browser);
    const stranger = browserAt();
    const theirs = await stranger.fetch(page.url);
    expect(theirs.status).toBe(403);
    const posted = await post(stranger, page, { address: "someone@example.test" });
    expect(posted.status).toBe(403);
  });

  it("tells an address it cannot read, and keeps what was typed", async () => {
    const browser = browserAt();
    const { page } = await recoverPage(browser);
    const refused = await ask(browser, page, "not an address <b>");
    expect(refused.status).toBe(400);
    expect(alertOf(refused.text)).toBe("Enter an e-mail address, or a phone number as 7XXXXXXXXXX.");
    expect(refused.text).toContain('value="not an address &lt;b&gt;"');
  });
});
