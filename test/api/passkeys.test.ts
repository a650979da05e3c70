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
async function portalPerson(): Promise<{ sub: string; cookie: string }> {
  const account = await createUserWithPassword();
  const browser = new Browser({ "x-forwarded-for": uniqueIp() });
  await authorizeThrough(browser, await startAppSignIn(browser, base(), "portal"), { identifier: account.sub, password: account.password });
  return { sub: account.sub, cookie: sessionCookie(browser, "portal")! };
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
    const passkeyForm = (page: TPage) => {
      const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)"/.exec(page.text)!;
      return { action: m[1]!.replace(/&amp;/g, "&"), options: m[2]!.replace(/&amp;/g, "&"), csrf: formOf(page.text).hidden.csrf_token! };
    };
    const form = passkeyForm(login);
    const post = (target: string, fields: Record<string, string>) =>
      browser.fetch(target, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

    // Without this browser's CSRF token there are no options.
    expect((await post(form.options, { csrf_token: "forged" })).status).toBe(403);
    const options = JSON.parse((await post(form.options, { csrf_token: form.csrf })).text);
    expect(options).toMatchObject({ rpId: new URL(base()).hostname, userVerification: "required", allowCredentials: [] });
    const answer = JSON.stringify(key.authenticate(options));

    const signedIn = await post(form.action, { csrf_token: form.csrf, answer });
    expect(signedIn.status).toBe(303);
    let page = await browser.open(signedIn.location!);
    if (page.url.includes("/consent?")) page = await browser.submit(page, { decision: "allow" });
    const code = callbackParams(page).get("code")!;
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const idToken = decodeJwt(tokens.body.id_token);
    expect(idToken.sub).toBe(person.sub);
    // No attestation, so nobody can say the key is hardware: "swk".
    expect(idToken.amr).toEqual(["swk", "user", "mfa"]);

    // The same answer again, in a new sign-in: refused on the form, in words.
    const again = new Browser({ "x-forwarded-for": uniqueIp() });
    const second = await again.open(webAuthorization({ ui_locales: "en" }).url);
    const secondForm = passkeyForm(second);
    const replay = await again.fetch(secondForm.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: secondForm.csrf, answer }).toString() });
    expect(replay.status).toBe(400);
    expect(alertOf(replay.text)).toBe("That passkey was not accepted. Sign in with your password, or try another passkey.");
    const garbage = await again.fetch(secondForm.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: secondForm.csrf, answer: "{not json" }).toString() });
    expect(garbage.status).toBe(400);
  });
});
