import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { decodeJwt } from "jose";
import { sessionCookie, startAppSignIn, trpcCall } from "../support/console.ts";
import { api, base, systemToken } from "../support/http.ts";
import { alertOf, formOf, type TPage } from "../support/browser.ts";
import { authorizeThrough, callbackParams, tokenAs, WEB, webAuthorization } from "../support/oidc.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.mjs";

// Passkeys over HTTP: added in the portal (its tRPC calls, with a real sign-in behind the session)
// by a software authenticator answering the server's options, then read and removed through the
// REST API in the style of the one-time-password operations.

const readToken = () => systemToken("otp-app", "idp_api_sys_usec");
const changeToken = () => systemToken("otp-app", "idp_api_sys_usec_chg");

/** A fresh account signed in to the portal: its sub and the portal's session cookie. */
async function portalPerson(): Promise<{ sub: string; password: string; cookie: string }> {
  const account = await createUserWithPassword();
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  await authorizeThrough(browser, await startAppSignIn(browser, base(), "portal"), { identifier: account.sub, password: account.password });
  return { sub: account.sub, password: account.password, cookie: sessionCookie(browser, "portal")! };
}

/** The passkey form of a sign-in page: where it posts, where it asks for options, and the page's CSRF field. */
function passkeyFormOf(page: TPage) {
  const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)"/.exec(page.text);
  if (!m) return undefined;
  return { action: m[1]!.replace(/&amp;/g, "&"), options: m[2]!.replace(/&amp;/g, "&"), csrf: formOf(page.text).hidden.csrf_token! };
}

const postForm = (browser: Browser, target: string, fields: Record<string, string>) =>
  browser.fetch(target, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

/** Back at the application with a code (through consent when asked), redeemed: the ID token's claims. */
async function idTokenAfter(browser: Browser, signedIn: TPage, verifier: string) {
  let page = await browser.open(signedIn.location!);
  if (page.url.includes("/consent?")) page = await browser.submit(page, { decision: "allow" });
  const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(page).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
  expect(tokens.status).toBe(200);
  return decodeJwt(tokens.body.id_token);
}

/** The authenticator of the service's own pages: its origin, and the RP id of its host. */
const authenticatorOfService = () => new SoftAuthenticator(new URL(base()).origin, new URL(base()).hostname);

async function addPasskey(person: { cookie: string }, authenticator: SoftAuthenticator, name = "Laptop") {
  const options = (await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation")).body.result!.data;
  return trpcCall(base(), person.cookie, "portal.passkeys.finish", { answer: authenticator.register(options), name }, "mutation");
}

describe("passkeys in the portal and the REST API", () => {
  it("adds a passkey in the portal, lists it in both, and removes it through the API", async () => {
    const person = await portalPerson();
    const authenticator = authenticatorOfService();
    const started = await trpcCall(base(), person.cookie, "portal.passkeys.start", {}, "mutation");
    expect(started.body.error).toBeUndefined();
    const options = started.body.result!.data;
    expect(options).toMatchObject({ rp: { id: new URL(base()).hostname }, user: { name: person.sub }, authenticatorSelection: { residentKey: "required", userVerification: "required" } });
    const added = await trpcCall(base(), person.cookie, "portal.passkeys.finish", { answer: authenticator.register(options), name: "Laptop" }, "mutation");
    expect(added.status).toBe(200);
    expect(added.body.result!.data).toMatchObject({ id: authenticator.id, name: "Laptop", synced: false });
    // The answer is spent: sent again, it adds nothing.
    const again = await trpcCall(base(), person.cookie, "portal.passkeys.finish", { answer: authenticator.register(options), name: "Laptop" }, "mutation");
    expect(again.status).toBe(400);
    expect(again.body.error!.data.appCode).toBe("passkeys.challenge_unknown");

    const listed = await api("GET", `/api/v3/users/${person.sub}/passkeys`, { token: await readToken() });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: authenticator.id, name: "Laptop", createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), lastUsedAt: null, aaguid: "00000000-0000-0000-0000-000000000000", synced: false, transports: ["internal"] },
    ]);
    expect(listed.text).not.toMatch(/publicKey/);
    // Reading needs the usec scope; removing needs its _chg (the contract answers 401 to a token without them).
    expect((await api("GET", `/api/v3/users/${person.sub}/passkeys`, { token: await systemToken("users-app", "idp_api_sys_users") })).status).toBe(401);
    expect((await api("DELETE", `/api/v3/users/${person.sub}/passkeys/${authenticator.id}`, { token: await readToken() })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${person.sub}/passkeys`)).status).toBe(401);

    // Another account does not have it, whatever the id.
    const other = await portalPerson();
    const notTheirs = await api("DELETE", `/api/v3/users/${other.sub}/passkeys/${authenticator.id}`, { token: await changeToken() });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toMatchObject({ error: "unknown_passkey" });

    expect((await api("DELETE", `/api/v3/users/${person.sub}/passkeys/${authenticator.id}`, { token: await changeToken() })).status).toBe(204);
    expect((await api("GET", `/api/v3/users/${person.sub}/passkeys`, { token: await readToken() })).body).toEqual([]);
    // What the passkey may have signed in ended with it: the person's portal session too.
    expect((await trpcCall(base(), person.cookie, "portal.passkeys.list")).status).toBe(401);
  });

  it("refuses one account's challenge answered for another, and a passkey from another origin", async () => {
    const [ann, bob] = [await portalPerson(), await portalPerson()];
    const forAnn = (await trpcCall(base(), ann.cookie, "portal.passkeys.start", {}, "mutation")).body.result!.data;
    const stolen = await trpcCall(base(), bob.cookie, "portal.passkeys.finish", { answer: authenticatorOfService().register(forAnn), name: "Mine" }, "mutation");
    expect(stolen.body.error!.data.appCode).toBe("passkeys.challenge_unknown");

    const phishing = new SoftAuthenticator("https://login.evil.example", new URL(base()).hostname);
    const refused = await addPasskey(ann, phishing);
    expect(refused.status).toBe(400);
    expect(refused.body.error!.data.appCode).toBe("passkeys.not_verified");
    expect((await api("GET", `/api/v3/users/${ann.sub}/passkeys`, { token: await readToken() })).body).toEqual([]);

    // The same passkey is not registered twice, on this account or another.
    const key = authenticatorOfService();
    expect((await addPasskey(ann, key)).status).toBe(200);
    expect((await addPasskey(bob, key)).body.error!.data.appCode).toBe("passkeys.already_registered");
  });

  it("signs in with a passkey alone from the sign-in page, and the ID token says how", async () => {
    const person = await portalPerson();
    const key = authenticatorOfService();
    expect((await addPasskey(person, key)).status).toBe(200);

    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const { url, verifier } = webAuthorization();
    const login = await browser.open(url);
    expect(login.url).toContain("/login?");
    // The page loads its one script from the service itself.
    expect(login.headers.get("content-security-policy")).toContain(`script-src ${base()}/login/passkey/script;`);
    const form = passkeyFormOf(login)!;

    // Without this browser's CSRF token there are no options.
    expect((await postForm(browser, form.options, { csrf_token: "forged" })).status).toBe(403);
    const options = JSON.parse((await postForm(browser, form.options, { csrf_token: form.csrf })).text);
    expect(options).toMatchObject({ rpId: new URL(base()).hostname, userVerification: "required", allowCredentials: [] });
    const answer = JSON.stringify(key.authenticate(options));

    const signedIn = await postForm(browser, form.action, { csrf_token: form.csrf, answer });
    expect(signedIn.status).toBe(303);
    const idToken = await idTokenAfter(browser, signedIn, verifier);
    expect(idToken.sub).toBe(person.sub);
    // No attestation, so nobody can say the key is hardware: "swk".
    expect(idToken.amr).toEqual(["swk", "user", "mfa"]);

    // The same answer again, in a new sign-in: refused on the form, in words.
    const again = new Browser({ "x-forwarded-for": uniqueIp() });
    const second = await again.open(webAuthorization({ ui_locales: "en" }).url);
    const secondForm = passkeyFormOf(second)!;
    const replay = await again.fetch(secondForm.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: secondForm.csrf, answer }).toString() });
    expect(replay.status).toBe(400);
    expect(alertOf(replay.text)).toBe("That passkey was not accepted. Sign in with your password, or try another passkey.");
    const garbage = await again.fetch(secondForm.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: secondForm.csrf, answer: "{not json" }).toString() });
    expect(garbage.status).toBe(400);
  });

  it("takes a passkey as the second factor after the password, with or without user verification", async () => {
    const person = await portalPerson();
    const key = authenticatorOfService();
    expect((await addPasskey(person, key)).status).toBe(200);
    // A passkey alone is enough of a second-factor method to turn the second factor on.
    const on = await api("POST", `/api/v3/users/${person.sub}/auth`, { token: await changeToken(), body: { requiredFactor: 2 } });
    expect(on.status).toBe(200);

    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const { url, verifier } = webAuthorization({ ui_locales: "en" });
    const step = await browser.submit(await browser.open(url), { identifier: person.sub, password: person.password });
    expect(step.url).toContain("/login/otp?");
    expect(step.headers.get("content-security-policy")).toContain(`script-src ${base()}/login/passkey/script;`);
    const form = passkeyFormOf(step)!;
    expect(form.action).toContain("/login/otp/passkey?");
    expect((await postForm(browser, form.options, { csrf_token: "forged" })).status).toBe(403);
    const options = JSON.parse((await postForm(browser, form.options, { csrf_token: form.csrf })).text);
    expect(options).toMatchObject({ userVerification: "preferred", allowCredentials: [{ id: key.id, type: "public-key" }] });

    // A wrong answer is told on the step's page, which stays where it was.
    const refused = await postForm(browser, form.action, { csrf_token: form.csrf, answer: "{not json" });
    expect(refused.status).toBe(400);
    expect(alertOf(refused.text)).toBe("That passkey was not accepted. Try another passkey, or type a code.");
    const answer = JSON.stringify(key.authenticate(options, { uv: false }));
    const signedIn = await postForm(browser, form.action, { csrf_token: form.csrf, answer });
    expect(signedIn.status).toBe(303);
    // RFC 8176: the password, a key without user verification, two factors.
    expect((await idTokenAfter(browser, signedIn, verifier)).amr).toEqual(["pwd", "swk", "mfa"]);

    // The same answer in another sign-in of the same person is refused: its challenge was spent.
    const other = new Browser({ "x-forwarded-for": uniqueIp() });
    const otherStep = await other.submit(await other.open(webAuthorization({ ui_locales: "en" }).url), { identifier: person.sub, password: person.password });
    const otherForm = passkeyFormOf(otherStep)!;
    expect((await postForm(other, otherForm.action, { csrf_token: otherForm.csrf, answer })).status).toBe(400);
    // An account without a passkey is not offered one on that step.
    const plain = await createUserWithPassword();
    const attached = await api("POST", "/api/v3/users/totps/attach", { token: await systemToken("otp-app", "idp_api_otp_full_access"), body: { subjectId: plain.sub, base32Secret: "JBSWY3DPEHPK3PXP", len: 6, algo: "SHA1", period: 30 } });
    expect(attached.status).toBe(204);
    expect((await api("POST", `/api/v3/users/${plain.sub}/auth`, { token: await changeToken(), body: { requiredFactor: 2 } })).status).toBe(200);
    const third = new Browser({ "x-forwarded-for": uniqueIp() });
    const plainStep = await third.submit(await third.open(webAuthorization({ ui_locales: "en" }).url), { identifier: plain.sub, password: plain.password });
    expect(plainStep.url).toContain("/login/otp?");
    expect(passkeyFormOf(plainStep)).toBeUndefined();
    expect(plainStep.headers.get("content-security-policy")).not.toContain("/login/passkey/script");
  });

  it("meets acr_values=phr only with a passkey: openid-client receives acr phr and amr from a passkey sign-in", async () => {
    const person = await portalPerson();
    const key = authenticatorOfService();
    expect((await addPasskey(person, key)).status).toBe(200);
    const config = await oidc.discovery(new URL(base()), WEB.id, WEB.secret, oidc.ClientSecretBasic(WEB.secret), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().acr_values_supported).toEqual(["0", "1", "phr"]);
    const request = async (extra: Record<string, string> = {}) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
      const url = oidc.buildAuthorizationUrl(config, { redirect_uri: WEB.redirectUri, scope: "openid profile", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, nonce, ui_locales: "en", ...extra });
      const redeem = (back: TPage) => oidc.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
      return { url: url.toString(), redeem };
    };

    // A browser signed in with the password: its session does not count, and the page offers only the passkey.
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    await authorizeThrough(browser, (await request()).url, { identifier: person.sub, password: person.password, consent: "allow" });
    const demanding = await request({ acr_values: "phr" });
    const page = await browser.open(demanding.url);
    expect(page.url).toContain("/login?");
    expect(page.text).toContain("asks you to sign in with a passkey.");
    expect(page.text).not.toContain('name="password"');
    const form = passkeyFormOf(page)!;
    // A password sent anyway is not even checked.
    const typed = await postForm(browser, page.url, { csrf_token: form.csrf, identifier: person.sub, password: person.password });
    expect(typed.status).toBe(400);
    expect(alertOf(typed.text)).toBe("This application asks for a passkey: sign in with one.");
    // Nor is a QR code offered (a phone's confirmation can be relayed by a look-alike page), nor a recovery.
    const qr = await postForm(browser, page.url.replace("/login?", "/login/qr?"), { csrf_token: form.csrf });
    expect(qr.status).toBe(303);
    expect(qr.location).toContain("/login?flow=");
    const recovery = await browser.fetch(`${page.url.replace("/login?", "/login/recover?")}&lang=en`);
    expect(recovery.status).toBe(400);
    expect(recovery.text).toContain("The application asks you to sign in with a passkey.");
    // prompt=none cannot be met by the password session either.
    const silent = await browser.open((await request({ acr_values: "phr", prompt: "none" })).url);
    expect(new URL(silent.location!).searchParams.get("error")).toBe("login_required");

    const options = JSON.parse((await postForm(browser, form.options, { csrf_token: form.csrf })).text);
    const signedIn = await postForm(browser, form.action, { csrf_token: form.csrf, answer: JSON.stringify(key.authenticate(options)) });
    expect(signedIn.status).toBe(303);
    // Consent was given at the password sign-in: straight back to the application.
    expect(signedIn.location).toMatch(new RegExp(`^${WEB.redirectUri}\\?code=`));
    // openid-client checks the ID token (signature, issuer, audience, nonce) before the claims are read.
    const tokens = await demanding.redeem(signedIn);
    expect(tokens.claims()).toMatchObject({ sub: person.sub, acr: "phr", amr: ["swk", "user", "mfa"] });

    // The passkey session now counts for the next demand, and says "phr" to a client that did not ask.
    const again = await request({ acr_values: "phr" });
    expect((await again.redeem(await browser.open(again.url))).claims()).toMatchObject({ acr: "phr" });
    const plain = await request();
    expect((await plain.redeem(await browser.open(plain.url))).claims()).toMatchObject({ acr: "phr" });
    // With "1" listed as well, any sign-in will do: the password session is used at once.
    const other = new Browser({ "x-forwarded-for": uniqueIp() });
    await authorizeThrough(other, (await request()).url, { identifier: person.sub, password: person.password, consent: "allow" });
    const either = await request({ acr_values: "phr 1" });
    expect((await either.redeem(await other.open(either.url))).claims()).toMatchObject({ acr: "0", amr: ["pwd"] });
  });

  it("holds back an address that sends refused passkey answers, like one guessing passwords", async () => {
    const person = await portalPerson();
    const key = authenticatorOfService();
    expect((await addPasskey(person, key)).status).toBe(200);
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const { url } = webAuthorization({ ui_locales: "en" });
    const form = passkeyFormOf(await browser.open(url))!;
    // The address's passkey counter (IP_POLICY: 20 failures), apart from the one passwords count on.
    const answers = await Promise.all(Array.from({ length: 20 }, () => postForm(browser, form.action, { csrf_token: form.csrf, answer: "{not json" })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(400));
    const options = JSON.parse((await postForm(browser, form.options, { csrf_token: form.csrf })).text);
    const held = await postForm(browser, form.action, { csrf_token: form.csrf, answer: JSON.stringify(key.authenticate(options)) });
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    // From another address the same person signs in; nothing was spent by the held answer.
    const elsewhere = new Browser({ "x-forwarded-for": uniqueIp() });
    const otherForm = passkeyFormOf(await elsewhere.open(webAuthorization({ ui_locales: "en" }).url))!;
    const otherOptions = JSON.parse((await postForm(elsewhere, otherForm.options, { csrf_token: otherForm.csrf })).text);
    expect((await postForm(elsewhere, otherForm.action, { csrf_token: otherForm.csrf, answer: JSON.stringify(key.authenticate(otherOptions)) })).status).toBe(303);
  });
});
