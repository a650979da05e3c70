import { describe, expect, inject, it } from "vitest";
import { unique } from "../support/accounts.ts";
import { alertOf, Browser, uniqueIp } from "../support/browser.ts";
import { consoleMutation, consoleSignIn } from "../support/console.ts";
import { base, request } from "../support/http.ts";
import { authorizeThrough, authorizeUrl, callbackParams, introspect, pkcePair, SPA, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

const newBrowser = () => new Browser({ "x-forwarded-for": uniqueIp() });

describe("authorization endpoint", () => {
  it("shows an unknown client and a redirect_uri mismatch to the user and never redirects", async () => {
    const browser = newBrowser();
    const cases: Record<string, string>[] = [
      { client_id: WEB.id, redirect_uri: "https://evil.example/callback" },
      { client_id: WEB.id, redirect_uri: `${WEB.redirectUri}/more` },
      { client_id: WEB.id },
      { client_id: "no-such-client", redirect_uri: WEB.redirectUri },
    ];
    for (const params of cases) {
      const page = await browser.fetch(authorizeUrl({ response_type: "code", scope: "openid", state: "s", ...params }), { headers: { "accept-language": "en" } });
      expect(page.status).toBe(400);
      expect(page.location).toBeUndefined();
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(alertOf(page.text)).toMatch(/not registered/);
    }
  });

  it("sends other errors back to the client with state and iss (RFC 6749 §4.1.2.1, RFC 9207)", async () => {
    const browser = newBrowser();
    const base_ = { client_id: WEB.id, redirect_uri: WEB.redirectUri, state: "st-1" };
    const cases: [Record<string, string>, string][] = [
      [{ response_type: "token", scope: "openid" }, "unsupported_response_type"],
      [{ response_type: "code", scope: "openid idp_api_sys_users" }, "invalid_scope"],
      [{ response_type: "code", scope: "openid", code_challenge: pkcePair().challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ response_type: "code", scope: "openid", prompt: "none login" }, "invalid_request"],
      [{ response_type: "code", scope: "openid", request: "eyJ..." }, "request_not_supported"],
    ];
    for (const [params, error] of cases) {
      const page = await browser.fetch(authorizeUrl({ ...base_, ...params }));
      expect(page.status).toBe(302);
      const back = callbackParams(page);
      expect(back.get("error")).toBe(error);
      expect(back.get("state")).toBe("st-1");
      expect(back.get("iss")).toBe(base());
      expect(page.location!.startsWith(`${WEB.redirectUri}?`)).toBe(true);
    }
    // A public client must use PKCE.
    const spa = await browser.fetch(authorizeUrl({ client_id: SPA.id, redirect_uri: SPA.redirectUri, response_type: "code", scope: "openid" }));
    expect(callbackParams(spa).get("error")).toBe("invalid_request");
  });

  it("requires PKCE of a confidential client too, unless an administrator let that client off", async () => {
    const browser = newBrowser();
    const refused = await browser.fetch(authorizeUrl({ client_id: WEB.id, redirect_uri: WEB.redirectUri, response_type: "code", scope: "openid", state: "st-2" }));
    const back = callbackParams(refused);
    expect(back.get("error")).toBe("invalid_request");
    expect(back.get("error_description")).toMatch(/PKCE is required/);
    expect(back.get("state")).toBe("st-2");

    // An old confidential application that cannot send PKCE, let off in the console: it gets the sign-in.
    const cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const id = unique("legacy-");
    const redirectUri = "https://legacy.example/cb";
    const created = await consoleMutation(base(), cookie, "console.clients.create", { id, name: id, scopes: [], grantTypes: ["authorization_code"], redirectUris: [redirectUri], pkceOptional: true });
    expect(created.client).toMatchObject({ id, pkceOptional: true });
    const page = await browser.fetch(authorizeUrl({ client_id: id, redirect_uri: redirectUri, response_type: "code", scope: "openid", state: "st-3" }));
    expect(page.location?.startsWith(redirectUri) ?? false).toBe(false);
    expect([200, 302, 303]).toContain(page.status);
  });

  it("answers prompt=none without a session with login_required, and with one with a code", async () => {
    const browser = newBrowser();
    const { url } = webAuthorization({ prompt: "none" });
    const page = await browser.fetch(url);
    expect(callbackParams(page).get("error")).toBe("login_required");
    await webTokens(browser);
    const again = await browser.fetch(webAuthorization({ prompt: "none" }).url);
    expect(callbackParams(again).get("code")).toEqual(expect.any(String));
  });

  it("remembers a consent, asks again for more scopes, and answers a denial with access_denied", async () => {
    const browser = newBrowser();
    const first = await browser.open(webAuthorization({ scope: "openid phone" }).url);
    const consent = await browser.submit(first, { identifier: "ivanov", password: "ivanov-password" });
    // Whether this browser's user consented before depends on other tests; the point is what follows.
    const back = consent.url.includes("/consent?") ? await browser.submit(consent, { decision: "allow" }) : consent;
    expect(callbackParams(back).get("code")).toEqual(expect.any(String));
    const remembered = await browser.fetch(webAuthorization({ scope: "openid phone" }).url);
    expect(callbackParams(remembered).get("code")).toEqual(expect.any(String));
    const asked = await browser.open(webAuthorization({ scope: "openid phone", prompt: "consent" }).url);
    expect(asked.status).toBe(200);
    expect(asked.url).toContain("/consent?");
    const denied = await browser.submit(asked, { decision: "deny" });
    expect(callbackParams(denied).get("error")).toBe("access_denied");
    expect(callbackParams(denied).get("iss")).toBe(base());
  });

  it("refuses a consent form without this browser's CSRF token", async () => {
    const browser = newBrowser();
    await webTokens(browser);
    const page = await browser.open(webAuthorization({ prompt: "consent" }).url);
    expect(page.url).toContain("/consent?");
    const action = /action="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, "&");
    const forged = await browser.fetch(action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "decision=allow&csrf_token=forged" });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeUndefined();
  });
});

describe("authorization code and refresh token grants", () => {
  it("refuses a second use of a code and revokes what the first use issued", async () => {
    const { code, verifier, tokens } = await webTokens(newBrowser());
    expect((await introspect(tokens.access_token)).body.active).toBe(true);
    const again = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    expect((await introspect(tokens.refresh_token)).body).toEqual({ active: false });
    const user = await request("/oauth/me", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(user.status).toBe(401);
    expect(user.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it("refuses a wrong PKCE verifier, a missing one, another redirect_uri and another client", async () => {
    const browser = newBrowser();
    const { url, verifier } = webAuthorization();
    const code = callbackParams(await authorizeThrough(browser, url)).get("code")!;
    const attempts: Record<string, string>[] = [
      { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: pkcePair().verifier },
      { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri },
      { grant_type: "authorization_code", code, redirect_uri: "https://rp.example.test/other", code_verifier: verifier },
    ];
    for (const form of attempts) {
      const r = await tokenAs("web", form);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("invalid_grant");
    }
    const foreign = await tokenAs("spa", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(foreign.body.error).toBe("invalid_grant");
    // None of the failures used the code up.
    const right = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(right.status).toBe(200);
  });

  it("rotates refresh tokens, and a reused one revokes the whole family", async () => {
    const { tokens } = await webTokens(newBrowser());
    const second = await tokenAs("web", { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(second.status).toBe(200);
    const third = await tokenAs("web", { grant_type: "refresh_token", refresh_token: second.body.refresh_token });
    expect(third.status).toBe(200);
    const narrowed = third.body.scope.split(" ");
    expect(narrowed).toContain("offline_access");

    const reuse = await tokenAs("web", { grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    for (const t of [third.body.refresh_token, third.body.access_token, second.body.access_token]) expect((await introspect(t)).body).toEqual({ active: false });
    const after = await tokenAs("web", { grant_type: "refresh_token", refresh_token: third.body.refresh_token });
    expect(after.body.error).toBe("invalid_grant");
  });

  it("lets a refresh narrow the scope but never widen it", async () => {
    const { tokens } = await webTokens(newBrowser());
    const narrow = await tokenAs("web", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, scope: "openid idp_api_user" });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe("openid idp_api_user");
    const wide = await tokenAs("web", { grant_type: "refresh_token", refresh_token: narrow.body.refresh_token, scope: "openid idp_api_user_chg" });
    expect(wide.body.error).toBe("invalid_scope");
  });

  it("authenticates a public client by its id alone and a confidential one only with its secret", async () => {
    const publicWithSecret = await request("/oauth/te", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: SPA.id, client_secret: "anything" }).toString(),
    });
    expect(publicWithSecret.status).toBe(401);
    const confidentialWithout = await request("/oauth/te", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: WEB.id }).toString(),
    });
    expect(confidentialWithout.status).toBe(401);
    expect(confidentialWithout.body.error).toBe("invalid_client");
    const spaIntrospects = await request("/oauth/introspect", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: "x", client_id: SPA.id }).toString(),
    });
    expect(spaIntrospects.status).toBe(401);
    const unknown = await introspect("not-a-token");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ active: false });
    const spaCredentials = await tokenAs("spa", { grant_type: "client_credentials", scope: "idp_api_sys_users" });
    expect(spaCredentials.body.error).toBe("unauthorized_client");
  });
});

describe("RP-initiated logout", () => {
  it("ends the session at once with an ID token naming the user, and goes back with state", async () => {
    const browser = newBrowser();
    const { tokens } = await webTokens(browser);
    const url = `${base()}/oauth/logout?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: WEB.logoutUri, state: "bye" })}`;
    const out = await browser.fetch(url);
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${WEB.logoutUri}?state=bye`);
    const page = await browser.fetch(webAuthorization({ prompt: "none" }).url);
    expect(callbackParams(page).get("error")).toBe("login_required");
  });

  it("asks for confirmation without a hint, and refuses an unregistered return address", async () => {
    const browser = newBrowser();
    await webTokens(browser);
    const bad = await browser.fetch(`${base()}/oauth/logout?${new URLSearchParams({ client_id: WEB.id, post_logout_redirect_uri: "https://evil.example/" })}`);
    expect(bad.status).toBe(400);
    expect(bad.location).toBeUndefined();
    const confirm = await browser.open(`${base()}/oauth/logout?${new URLSearchParams({ client_id: WEB.id, post_logout_redirect_uri: WEB.logoutUri })}`);
    expect(confirm.status).toBe(200);
    expect(callbackParams(await browser.fetch(webAuthorization({ prompt: "none" }).url)).get("code")).toEqual(expect.any(String));
    const out = await browser.submit(confirm, {});
    expect(out.status).toBe(303);
    expect(out.location).toBe(WEB.logoutUri);
    expect(callbackParams(await browser.fetch(webAuthorization({ prompt: "none" }).url)).get("error")).toBe("login_required");
  });
});
