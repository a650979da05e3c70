import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import * as oidc from "openid-client";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, base } from "../support/http.ts";
import { authorizeThrough, IVANOV, SPA, WEB } from "../support/oidc.ts";

// Relying parties nobody here wrote drive the whole flow: discovery, authorization code with PKCE
// (the sign-in and consent forms submitted over plain HTTP, no JavaScript), token, ID token checked
// against the JWKS, userinfo, refresh, introspection, revocation.

const jwks = () => createRemoteJWKSet(new URL(`${base()}/.well-known/jwks.json`));
const insecure = { [oauth.allowInsecureRequests]: true };

describe("openid-client as a confidential relying party (rp-web, consent screen)", () => {
  it("signs in with code + PKCE and uses every endpoint", async () => {
    const config = await oidc.discovery(new URL(base()), WEB.id, WEB.secret, oidc.ClientSecretBasic(WEB.secret), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata()).toMatchObject({ authorization_endpoint: `${base()}/oauth/ae`, code_challenge_methods_supported: ["S256"] });
    const verifier = oidc.randomPKCECodeVerifier();
    const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: WEB.redirectUri,
      scope: "openid profile email phone offline_access idp_api_user",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" });
    const back = await authorizeThrough(browser, url.toString(), { consent: "allow" });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });

    expect(tokens.scope).toBe("openid profile email phone offline_access idp_api_user");
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: base(), sub: IVANOV.sub, aud: WEB.id, nonce, acr: "1", amr: ["pwd"] });
    expect(claims.sid).toEqual(expect.any(String));
    expect(claims.auth_time).toBeLessThanOrEqual(claims.iat);
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks(), { issuer: base(), audience: WEB.id });
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(payload.at_hash).toEqual(expect.any(String));

    const info = await oidc.fetchUserInfo(config, tokens.access_token, IVANOV.sub);
    expect(info).toEqual({
      sub: IVANOV.sub,
      family_name: "Иванов",
      given_name: "Иван",
      email: IVANOV.email,
      email_verified: true,
      phone_number: `+${IVANOV.phone}`,
      phone_number_verified: true,
    });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.claims()).toMatchObject({ sub: IVANOV.sub, aud: WEB.id, auth_time: claims.auth_time });

    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toMatchObject({ active: true, sub: IVANOV.sub, client_id: WEB.id, sub_type: "user" });
    expect(await oidc.tokenIntrospection(config, refreshed.refresh_token!)).toMatchObject({ active: true, token_type: "refresh_token", sub: IVANOV.sub });
    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    expect(await oidc.tokenIntrospection(config, refreshed.refresh_token!)).toEqual({ active: false });
    // Revoking the refresh token took the access token issued with it along (RFC 7009 §2.1).
    expect(await oidc.tokenIntrospection(config, refreshed.access_token)).toEqual({ active: false });
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });

    // Neither the password, nor the code, nor any token reaches the log (query strings and bodies are never logged).
    await new Promise((r) => setTimeout(r, 200));
    const log = readFileSync(inject("serverLog"), "utf8");
    const code = new URL(back.location!).searchParams.get("code")!;
    for (const secret of [IVANOV.password, code, tokens.access_token, tokens.id_token!, tokens.refresh_token!, refreshed.refresh_token!]) expect(log).not.toContain(secret);
  });
});

describe("oauth4webapi as a public first-party relying party (rp-spa, no consent screen)", () => {
  it("signs in with code + PKCE, no client secret, and uses every endpoint", async () => {
    const issuer = new URL(base());
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    const spa: oauth.Client = { client_id: SPA.id };
    const verifier = oauth.generateRandomCodeVerifier();
    const [state, nonce] = [oauth.generateRandomState(), oauth.generateRandomNonce()];
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: SPA.id,
      redirect_uri: SPA.redirectUri,
      response_type: "code",
      scope: "openid profile offline_access idp_api_user",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      ui_locales: "en",
    })) url.searchParams.set(k, v);

    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const back = await authorizeThrough(browser, url.toString(), { identifier: IVANOV.email });
    const params = oauth.validateAuthResponse(as, spa, new URL(back.location!), state);
    const response = await oauth.authorizationCodeGrantRequest(as, spa, oauth.None(), params, SPA.redirectUri, verifier, insecure);
    const result = await oauth.processAuthorizationCodeResponse(as, spa, response, { expectedNonce: nonce, requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims).toMatchObject({ iss: base(), sub: IVANOV.sub, aud: SPA.id, nonce, amr: ["pwd"] });
    // The client's own lifetimes: 300 s for access tokens, 600 s for ID tokens.
    expect(result.expires_in).toBe(300);
    expect(claims.exp - claims.iat).toBe(600);
    await jwtVerify(result.id_token!, jwks(), { issuer: base(), audience: SPA.id });

    const info = await oauth.processUserInfoResponse(as, spa, IVANOV.sub, await oauth.userInfoRequest(as, spa, result.access_token, insecure));
    expect(info).toEqual({ sub: IVANOV.sub, family_name: "Иванов", given_name: "Иван" });

    const refreshed = await oauth.processRefreshTokenResponse(as, spa, await oauth.refreshTokenGrantRequest(as, spa, oauth.None(), result.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(result.refresh_token);

    // A resource server (a confidential client) asks about the SPA's access token.
    const web: oauth.Client = { client_id: WEB.id };
    const active = await oauth.processIntrospectionResponse(as, web, await oauth.introspectionRequest(as, web, oauth.ClientSecretBasic(WEB.secret), refreshed.access_token, insecure));
    expect(active).toMatchObject({ active: true, client_id: SPA.id, sub: IVANOV.sub, scope: "openid profile offline_access idp_api_user" });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, spa, oauth.None(), refreshed.access_token, insecure));
    const revoked = await oauth.processIntrospectionResponse(as, web, await oauth.introspectionRequest(as, web, oauth.ClientSecretBasic(WEB.secret), refreshed.access_token, insecure));
    expect(revoked).toEqual({ active: false });
  });
});

describe("user-mode access tokens", () => {
  it("read the signed-in user's own account at /api/v3/users/current", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const config = await oidc.discovery(new URL(base()), WEB.id, WEB.secret, oidc.ClientSecretBasic(WEB.secret), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: WEB.redirectUri,
      scope: "openid idp_api_user",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const back = await authorizeThrough(browser, url.toString());
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, idTokenExpected: true });
    expect(tokens.refresh_token).toBeUndefined();
    const headers = { "x-forwarded-for": "203.0.113.7", "user-agent": "rp-web test" };
    const me = await api("GET", "/api/v3/users/current", { token: tokens.access_token, headers });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ sub: IVANOV.sub, family_name: "Иванов" });
    const other = await api("GET", "/api/v3/users/petrov", { token: tokens.access_token, headers });
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ error: "bad_access_token", desc: expect.stringMatching(/^wrong_subject/) });
  });
});
