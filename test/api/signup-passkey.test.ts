import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { unique } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { api, base, systemToken } from "../support/http.ts";
import { codeOf, waitForMessage } from "../support/inbox.ts";
import { callbackParams, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.mjs";

// A sign-up with a passkey instead of a password (server/sign-in/signup-passkey.service.ts): the
// form without a password, the e-mail code read from the real SMTP server, then a software
// authenticator answers the options bound to the sign-up in this browser. The application that
// asked for a passkey (acr_values=phr) gets its code, and the ID token says how the person signed in.

const unescape = (s: string) => s.replace(/&amp;/g, "&");
const postForm = (b: Browser, target: string, fields: Record<string, string>) =>
  b.fetch(target, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

/** The passkey form of a page: where it posts, where it asks for options, and the page's CSRF field. */
function passkeyFormOf(page: TPage) {
  const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)" data-ceremony="create"/.exec(page.text)!;
  return { action: new URL(unescape(m[1]!), page.url).toString(), options: new URL(unescape(m[2]!), page.url).toString(), csrf: formOf(page.text).hidden.csrf_token! };
}

describe("self sign-up with a passkey instead of a password", () => {
  it("confirms the e-mail, creates the passkey in the browser that signed up, and signs in with acr phr", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
    const { url, verifier } = webAuthorization({ acr_values: "phr" });
    const login = await browser.open(url);
    const link = /<a href="([^"]*\/register\?[^"]*)">/.exec(login.text)![1]!;
    const form = await browser.open(unescape(link));
    const email = `${unique("su-pk-")}@example.test`;
    // No password typed: the passkey button was pressed.
    const codes = await browser.submit(form, { family_name: "Ключникова", given_name: "Ада", email, method: "passkey" });
    expect(codes.status).toBe(200);
    expect(codes.url).toContain("/register/code?signup=");

    // The last code creates the account without a password and leads to its passkey, not to a session.
    const step = await browser.submit(codes, { contact: "email", action: "confirm", code: codeOf(await waitForMessage(email)) });
    expect(step.status).toBe(200);
    expect(step.url).toMatch(/\/register\/passkey\?signup=[\w-]+&lang=en$/);
    expect(step.text).toContain("<h1>Create your passkey</h1>");
    expect(step.headers.get("content-security-policy")).toContain(`script-src ${base()}/login/passkey/script;`);
    expect(browser.cookies.has("idp_session")).toBe(false);
    // The codes page, opened again, leads here too.
    expect((await browser.open(codes.url)).url).toBe(step.url);

    const pk = passkeyFormOf(step);
    // Another browser, or this one without its CSRF field, gets no options.
    expect((await postForm(new Browser({ "x-forwarded-for": uniqueIp() }), pk.options, { csrf_token: pk.csrf })).status).toBe(403);
    expect((await postForm(browser, pk.options, { csrf_token: "forged" })).status).toBe(403);
    const options = JSON.parse((await postForm(browser, pk.options, { csrf_token: pk.csrf })).text);
    expect(options).toMatchObject({ user: { name: email, displayName: "Ада Ключникова" }, authenticatorSelection: { residentKey: "required", userVerification: "required" }, excludeCredentials: [] });

    // An answer without user verification is refused in words, and the step stays.
    const key = new SoftAuthenticator(new URL(base()).origin, new URL(base()).hostname);
    const refused = await postForm(browser, pk.action, { csrf_token: pk.csrf, answer: JSON.stringify(key.register(options, { uv: false })) });
    expect(refused.status).toBe(400);
    expect(alertOf(refused.text)).toBe("The passkey could not be created. Try again, or use another device or security key.");
    expect(browser.cookies.has("idp_session")).toBe(false);

    // Eight devices answer the same options at once: one passkey registers, the others find the step taken.
    const fresh = JSON.parse((await postForm(browser, pk.options, { csrf_token: pk.csrf })).text);
    const keys = [key, ...Array.from({ length: 7 }, () => new SoftAuthenticator(new URL(base()).origin, new URL(base()).hostname))];
    const answers = keys.map((k) => JSON.stringify(k.register(fresh)));
    const results = await Promise.all(answers.map((a) => postForm(browser, pk.action, { csrf_token: pk.csrf, answer: a })));
    expect(results.map((r) => r.status).sort()).toEqual([303, 404, 404, 404, 404, 404, 404, 404]);
    const winner = results.findIndex((r) => r.status === 303);
    const done = results[winner]!;
    const answer = answers[winner]!;
    expect(browser.cookies.has("idp_session")).toBe(true);
    let back = await browser.open(done.location!);
    if (back.url.includes("/consent?")) back = await browser.submit(back, { decision: "allow" });
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(back).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const idToken = decodeJwt(tokens.body.id_token);
    expect(idToken).toMatchObject({ acr: "phr", amr: ["swk", "user"] });
    const sub = idToken.sub!;

    // The same answer again: the sign-up is over.
    expect((await postForm(browser, pk.action, { csrf_token: pk.csrf, answer })).status).toBe(404);
    // The account has the passkey and no password: no password signs it in.
    const listed = await api("GET", `/api/v3/users/${sub}/passkeys`, { token: await systemToken("otp-app", "idp_api_sys_usec") });
    expect(listed.body.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([[keys[winner]!.id, "Passkey"]]);
    await expect(webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), {}, { identifier: email, password: "a long sign-up passphrase" })).rejects.toThrow();
    const events = (await api("GET", `/api/v3/users/${sub}/audit?type=user.signed_in`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events;
    expect(events.map((e: { params: { method: string } }) => e.params.method)).toEqual(["registration_passkey"]);
  });

  it("without passkeys on the page's form (method unset) still asks for a password", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
    const form = await browser.open(`${base()}/register?lang=en`);
    const refused = await browser.submit(form, { family_name: "Парольная", email: `${unique("su-pw-")}@example.test` });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('id="password-error"');
  });
});
