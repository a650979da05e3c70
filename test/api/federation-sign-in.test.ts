import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUserWithPassword, readUser, unique } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { consoleMutation, consoleSignIn } from "../support/console.ts";
import { FEDERATION_CLIENT, signInAtProvider, startFederationProvider, type TFederationProvider } from "../support/external-provider.ts";
import { api, base, systemToken } from "../support/http.ts";
import { codeAfter } from "../support/inbox.ts";
import { independentTotp } from "../support/independent-otp.ts";
import { callbackParams, tokenAs, WEB, webAuthorization } from "../support/oidc.ts";

// Sign-in with an external account from the sign-in page (server/sign-in/external-login.*): panva's
// oidc-provider is the external provider, configured in the console by this file under a name of its
// own, and its own login pages are driven over HTTP.

const sys = (scope: string) => systemToken("users-app", scope);
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await sys("idp_api_sys_uaud") })).body.events as { clientId?: string; params: Record<string, unknown> }[];
const bindingsOf = async (sub: string) => (await api("GET", `/api/v3/users/${sub}/fa`, { token: await sys("idp_api_sys_ufa") })).body;
const storedTokens = async (sub: string) => api("GET", `/api/v3/users/${sub}/fedToken/oidc/${fpName}`, { token: await systemToken("fa-app", "fed_tkn_any") });
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as { sub: string; amr?: string[] };
const setAuthModes = async (sub: string, body: unknown) => api("POST", `/api/v3/users/${sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body });
const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

let op: TFederationProvider;
let admin: string;
const fpName = unique("signin-");
const fp = `oidc:${fpName}`;

beforeAll(async () => {
  op = await startFederationProvider({ redirectUris: [`${base()}/fa/callback`] });
  admin = await consoleSignIn(base(), "admin", inject("adminPassword"));
  await consoleMutation(base(), admin, "console.providers.create", {
    fpType: "oidc",
    fpName,
    clientId: FEDERATION_CLIENT.id,
    clientSecret: FEDERATION_CLIENT.secret,
    discoveryUrl: op.issuer,
    scopes: ["openid", "profile", "email"],
    offeredAtSignIn: true,
    allowRegistration: true,
    rememberTokens: true,
  });
});

afterAll(async () => {
  if (admin) await consoleMutation(base(), admin, "console.providers.delete", { fpType: "oidc", fpName, force: true });
  await op?.close();
});

const browserAt = () => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });

/** The sign-in page of a new authorization of rp-web. */
async function loginPage(browser: Browser) {
  const { url, verifier } = webAuthorization({ scope: "openid" });
  const page = await browser.open(url);
  expect(page.url).toContain("/login?");
  return { page, verifier };
}

/** Presses the provider's button on the sign-in page; returns the redirect to the provider. */
async function pressProvider(browser: Browser, login: TPage, value = fp): Promise<TPage> {
  const form = /<form method="post" action="([^"]*\/login\/fa\?[^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(login.text);
  expect(form, "the sign-in page offers the provider").not.toBeNull();
  expect(form![2]).toContain(`name="fp" value="${fp}"`);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(form![2]!)![1]!;
  return browser.fetch(form![1]!.replace(/&amp;/g, "&"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf_token: csrf, fp: value }).toString(),
  });
}

/** Through the provider's own pages as `login`, back to the service's callback and on while on the service. */
async function signInExternally(browser: Browser, login: TPage, sid: string): Promise<TPage> {
  const toProvider = await pressProvider(browser, login);
  expect(toProvider.status).toBe(303);
  expect(toProvider.location).toContain(`${op.issuer}/auth?`);
  const back = await signInAtProvider(browser, toProvider.location!, sid);
  expect(back.location).toContain(`${base()}/fa/callback?`);
  return browser.open(back.location!);
}

/** Allows rp-web's consent when it is asked, and exchanges the code. */
async function finish(browser: Browser, page: TPage, verifier: string) {
  const back = page.status === 200 && page.url.includes("/consent?") ? await browser.submit(page, { decision: "allow" }) : page;
  const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(back).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
  expect(tokens.status).toBe(200);
  return claimsOf(tokens.body.id_token);
}

async function boundUser() {
  const account = await createUserWithPassword();
  const sid = unique("ext-");
  const bound = await api("POST", `/api/v3/users/${account.sub}/fa/oidc/${fpName}/${sid}`, { token: await sys("idp_api_sys_ufa_chg"), body: { federatedAccountName: sid } });
  expect(bound.status).toBe(204);
  return { ...account, sid };
}

/** Binds a TOTP generator (SECRET) to the account and turns its second factor on. */
async function requireSecondFactor(sub: string) {
  const attached = await api("POST", "/api/v3/users/totps/attach", {
    token: await systemToken("otp-app", "idp_api_otp_full_access"),
    body: { subjectId: sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30 },
  });
  expect(attached.status).toBe(204);
  expect((await setAuthModes(sub, { requiredFactor: 2 })).status).toBe(200);
}

/** Nothing of the external account reached the user: no binding, no fa_bound event, no stored tokens. */
async function expectNotLinked(sub: string) {
  expect(await bindingsOf(sub)).toEqual([]);
  expect(await eventsOf(sub, "user.fa_bound")).toEqual([]);
  expect((await storedTokens(sub)).status).toBe(404);
}

/** The link page of a new flow of a new browser, after signing in at the provider as `sid`. */
async function linkPageFor(sid: string) {
  const browser = browserAt();
  const { page, verifier } = await loginPage(browser);
  const link = await signInExternally(browser, page, sid);
  expect(link.url).toContain("/login/fa/link?");
  return { browser, link, verifier };
}

describe("sign-in with an external account bound to a user", () => {
  it("signs the user in with amr fed, records the event and stores the provider's tokens", async () => {
    const user = await boundUser();
    expect((await storedTokens(user.sub)).status).toBe(404);
    const browser = browserAt();
    const { page, verifier } = await loginPage(browser);
    expect(page.text).toContain(`Sign in with ${fpName}</button>`);
    const after = await signInExternally(browser, page, user.sid);
    expect(browser.cookies.has("idp_session")).toBe(true);
    const claims = await finish(browser, after, verifier);
    expect(claims).toMatchObject({ sub: user.sub, amr: ["fed"] });

    const signedIn = await eventsOf(user.sub, "user.signed_in");
    expect(signedIn[0]).toMatchObject({ clientId: WEB.id, params: { method: "fed", provider: fp } });
    // rememberTokens is on: this sign-in's access token is kept for applications allowed fed_tkn_any.
    const stored = await storedTokens(user.sub);
    expect(stored.status).toBe(200);
    expect(Object.keys(stored.body)).toEqual([user.sid]);
    expect(stored.body[user.sid].token).toMatch(/\S{20,}/);
  });

  it("still asks for the account's second factor when requiredFactor is 2 (amr fed+otp)", async () => {
    const user = await boundUser();
    await requireSecondFactor(user.sub);
    const browser = browserAt();
    const { page, verifier } = await loginPage(browser);
    const otp = await signInExternally(browser, page, user.sid);
    expect(otp.status).toBe(200);
    expect(otp.url).toContain("/login/otp?");
    expect(browser.cookies.has("idp_session")).toBe(false);
    const done = await browser.submit(otp, { otp: independentTotp(SECRET) });
    expect((await finish(browser, done, verifier)).amr).toEqual(["fed", "otp", "mfa"]);
    expect((await eventsOf(user.sub, "user.signed_in"))[0]).toMatchObject({ params: { method: "fed+otp" } });
  });

  it("refuses a locked account on the sign-in page, without a session, and records why", async () => {
    const user = await boundUser();
    const locked = await api("POST", `/api/v3/users/${user.instanceId}`, { token: await sys("idp_api_sys_users_chg"), body: { locked: true } });
    expect(locked.status).toBe(200);
    const browser = browserAt();
    const { page } = await loginPage(browser);
    const refused = await signInExternally(browser, page, user.sid);
    expect(refused.status).toBe(403);
    expect(alertOf(refused.text)).toBe("This account is locked. Contact your administrator.");
    expect(browser.cookies.has("idp_session")).toBe(false);
    expect((await storedTokens(user.sub)).status).toBe(404);
    expect((await eventsOf(user.sub, "user.sign_in_failed"))[0]).toMatchObject({ params: { reason: "account_locked", method: "fed", provider: fp } });
  });
});

describe("sign-in with an external account bound to nobody", () => {
  it("links it after the password (the wrong one refused first), signs in, and the next time signs in with it alone", async () => {
    const user = await createUserWithPassword();
    const sid = unique("ext-");
    const browser = browserAt();
    const { page, verifier } = await loginPage(browser);
    const link = await signInExternally(browser, page, sid);
    expect(link.status).toBe(200);
    expect(link.url).toContain("/login/fa/link?");
    expect(link.text).toContain(`Your ${fpName} account ${sid} is not linked to an account here yet.`);
    expect(link.text).toContain("Create an account linked to it</a>");
    expect(link.text).not.toContain("/login/qr");
    const back = /<a href="([^"]*\/login\?[^"]*)">Sign in another way<\/a>/.exec(link.text);
    expect(back).not.toBeNull();

    const wrong = await browser.submit(link, { identifier: user.sub, password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe("Wrong username or password.");
    expect(await bindingsOf(user.sub)).toEqual([]);

    const done = await browser.submit(wrong, { identifier: user.sub, password: user.password });
    expect(await finish(browser, done, verifier)).toMatchObject({ sub: user.sub, amr: ["pwd"] });
    expect(await bindingsOf(user.sub)).toEqual([{ sid, fpType: "oidc", fpName, userName: sid }]);
    expect((await eventsOf(user.sub, "user.fa_bound"))[0]).toMatchObject({ params: { via: "sign_in", provider: fp, sid } });
    expect(Object.keys((await storedTokens(user.sub)).body)).toEqual([sid]);

    // The flow's external account went with the link: the page is gone.
    expect((await browser.open(link.url)).status).toBe(404);
    const again = browserAt();
    const second = await loginPage(again);
    expect(await finish(again, await signInExternally(again, second.page, sid), second.verifier)).toMatchObject({ sub: user.sub, amr: ["fed"] });
  });

  it("creates an account from the claims through the sign-up pages, bound to the external account", async () => {
    const sid = unique("new-");
    const email = `${sid}@ext.example.test`;
    const browser = browserAt();
    const { page, verifier } = await loginPage(browser);
    const link = await signInExternally(browser, page, sid);
    const registerUrl = /<a href="([^"]*\/register\?[^"]*)">Create an account linked to it<\/a>/.exec(link.text)![1]!.replace(/&amp;/g, "&");
    const form = await browser.open(registerUrl);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`The new account will be linked to your ${fpName} account ${sid}`);
    expect(form.text).toMatch(new RegExp(`id="email" name="email" value="${email}"`));

    const password = "external sign-up passphrase";
    const { result: codes, code } = await codeAfter(email, () => browser.submit(form, { family_name: "Внешний", email, password, password_repeat: password }));
    expect(codes.url).toContain("/register/code?");
    const done = await browser.submit(codes, { contact: "email", action: "confirm", code });
    const claims = await finish(browser, done, verifier);
    expect(await bindingsOf(claims.sub)).toEqual([{ sid, fpType: "oidc", fpName, userName: sid }]);
    expect((await readUser(claims.sub)).body).toMatchObject({ family_name: "Внешний", email: { value: email, vrf: true } });
    expect((await eventsOf(claims.sub, "user.fa_bound"))[0]).toMatchObject({ params: { via: "registration", provider: fp, sid } });
  });

  it("does not link by password when password sign-in is locked for the account", async () => {
    const user = await createUserWithPassword();
    expect((await setAuthModes(user.sub, { methodsLocked: ["password"] })).status).toBe(200);
    const sid = unique("ext-");
    const browser = browserAt();
    const { page } = await loginPage(browser);
    const link = await signInExternally(browser, page, sid);
    const refused = await browser.submit(link, { identifier: user.sub, password: user.password });
    expect(refused.status).toBe(403);
    expect(alertOf(refused.text)).toMatch(/^Signing in with a password is turned off for this account/);
    expect(refused.text).toContain(`Your ${fpName} account ${sid} is not linked`);
    expect(browser.cookies.has("idp_session")).toBe(false);
    expect(await bindingsOf(user.sub)).toEqual([]);
    expect((await eventsOf(user.sub, "user.sign_in_failed"))[0]).toMatchObject({ params: { reason: "method_locked", method: "pwd" } });
  });

  it("with the second factor on, binds nothing on the password alone (abandoned, or a wrong code), and binds once the code is right", async () => {
    const user = await createUserWithPassword();
    await requireSecondFactor(user.sub);
    const sid = unique("ext-");
    const { browser, link, verifier } = await linkPageFor(sid);
    const otp = await browser.submit(link, { identifier: user.sub, password: user.password });
    expect(otp.status).toBe(200);
    expect(otp.url).toContain("/login/otp?");
    expect(browser.cookies.has("idp_session")).toBe(false);
    await expectNotLinked(user.sub);
    // Whoever knows only the password stops here: the external account still belongs to nobody.
    await linkPageFor(sid);

    const code = independentTotp(SECRET);
    const wrong = await browser.submit(otp, { otp: String((Number(code) + 500_000) % 1_000_000).padStart(6, "0") });
    expect(wrong.status).toBe(400);
    await expectNotLinked(user.sub);

    const done = await browser.submit(wrong, { otp: code });
    expect(await finish(browser, done, verifier)).toMatchObject({ sub: user.sub, amr: ["pwd", "otp", "mfa"] });
    expect(await bindingsOf(user.sub)).toEqual([{ sid, fpType: "oidc", fpName, userName: sid }]);
    const bound = await eventsOf(user.sub, "user.fa_bound");
    expect(bound).toHaveLength(1);
    expect(bound[0]).toMatchObject({ clientId: WEB.id, params: { via: "sign_in", provider: fp, sid } });
    expect(Object.keys((await storedTokens(user.sub)).body)).toEqual([sid]);

    // The second factor guards the sign-ins with the external account too.
    const again = browserAt();
    const next = await signInExternally(again, (await loginPage(again)).page, sid);
    expect(next.status).toBe(200);
    expect(next.url).toContain("/login/otp?");
    expect(again.cookies.has("idp_session")).toBe(false);
  });

  it("with a new password due, binds nothing until it is set", async () => {
    const user = await createUserWithPassword();
    expect((await setAuthModes(user.sub, { needPasswordChange: true })).status).toBe(200);
    const sid = unique("ext-");
    const { browser, link, verifier } = await linkPageFor(sid);
    const step = await browser.submit(link, { identifier: user.sub, password: user.password });
    expect(step.url).toContain("/login/password?");
    const mismatch = await browser.submit(step, { password: "a new long passphrase", repeat: "another passphrase" });
    expect(mismatch.status).toBe(400);
    expect(browser.cookies.has("idp_session")).toBe(false);
    await expectNotLinked(user.sub);

    const done = await browser.submit(mismatch, { password: "a new long passphrase", repeat: "a new long passphrase" });
    expect(await finish(browser, done, verifier)).toMatchObject({ sub: user.sub, amr: ["pwd"] });
    expect(await bindingsOf(user.sub)).toEqual([{ sid, fpType: "oidc", fpName, userName: sid }]);
    expect((await eventsOf(user.sub, "user.fa_bound"))[0]).toMatchObject({ params: { via: "sign_in", provider: fp, sid } });
  });

  it("does not link when the link page is left for the plain sign-in form", async () => {
    const user = await createUserWithPassword();
    const sid = unique("ext-");
    const { browser, link, verifier } = await linkPageFor(sid);
    const plain = await browser.open(/<a href="([^"]*\/login\?[^"]*)">Sign in another way<\/a>/.exec(link.text)![1]!.replace(/&amp;/g, "&"));
    const done = await browser.submit(plain, { identifier: user.sub, password: user.password });
    expect(await finish(browser, done, verifier)).toMatchObject({ sub: user.sub, amr: ["pwd"] });
    await expectNotLinked(user.sub);
  });

  it("refuses the link form sent from a browser other than the flow's", async () => {
    const sid = unique("ext-");
    const browser = browserAt();
    const { page } = await loginPage(browser);
    const link = await signInExternally(browser, page, sid);
    const stranger = browserAt();
    const csrf = formOf(link.text).hidden.csrf_token!;
    const foreign = await stranger.fetch(link.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: csrf, identifier: "x", password: "y" }).toString() });
    expect(foreign.status).toBe(403);
  });
});

describe("the sign-in page's provider button", () => {
  it("says so in a page when the provider cannot be reached (502, never a 500)", async () => {
    const down = unique("down-");
    await consoleMutation(base(), admin, "console.providers.create", { fpType: "oidc", fpName: down, clientId: "x", clientSecret: "y", discoveryUrl: "http://127.0.0.1:9", offeredAtSignIn: true });
    try {
      const browser = browserAt();
      const { page } = await loginPage(browser);
      const failed = await pressProvider(browser, page, `oidc:${down}`);
      expect(failed.status).toBe(502);
      expect(alertOf(failed.text)).toBe("The external provider cannot be reached now. Try again later, or sign in another way.");
    } finally {
      await consoleMutation(base(), admin, "console.providers.delete", { fpType: "oidc", fpName: down });
    }
  });

  it("brings the person back to the sign-in form when they cancel at the provider, and the password still signs in", async () => {
    const user = await createUserWithPassword();
    const browser = browserAt();
    const { page, verifier } = await loginPage(browser);
    const toProvider = await pressProvider(browser, page);
    const state = new URL(toProvider.location!).searchParams.get("state")!;
    // What the provider sends back when the person presses its cancel button (RFC 6749 §4.1.2.1).
    const cancelled = await browser.open(`${base()}/fa/callback?state=${state}&error=access_denied&error_description=End-User+aborted+interaction`);
    expect(cancelled.status).toBe(400);
    expect(cancelled.url).toContain("/fa/callback?");
    expect(alertOf(cancelled.text)).toBe("The external provider did not confirm your account. Try again, or sign in another way.");
    expect(cancelled.text).not.toContain("End-User aborted");
    const done = await browser.submit(cancelled, { identifier: user.sub, password: user.password });
    expect(await finish(browser, done, verifier)).toMatchObject({ sub: user.sub, amr: ["pwd"] });
  });

  it("shows the refusal as a page in a browser that is not the flow's", async () => {
    const browser = browserAt();
    const { page } = await loginPage(browser);
    const state = new URL((await pressProvider(browser, page)).location!).searchParams.get("state")!;
    const stranger = browserAt();
    const refused = await stranger.open(`${base()}/fa/callback?state=${state}&error=access_denied`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("The external provider did not confirm your account.");
    expect(refused.text).not.toContain('name="password"');
  });

  it("refuses a provider that is not offered, and a form without its CSRF field", async () => {
    const browser = browserAt();
    const { page } = await loginPage(browser);
    const unknown = await pressProvider(browser, page, "oidc:not-offered");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("This way of signing in is not offered here.");
    const action = /action="([^"]*\/login\/fa\?[^"]*)"/.exec(page.text)![1]!.replace(/&amp;/g, "&");
    const forged = await browser.fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ fp }).toString() });
    expect(forged.status).toBe(403);
  });
});
