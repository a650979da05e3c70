import * as oauth from "oauth4webapi";
import * as oidc from "openid-client";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { createUserWithPassword, unique, uniquePhone } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, base, request, systemToken } from "../support/http.ts";
import { codeAfter } from "../support/inbox.ts";
import { authorizeThrough, authorizeUrl, callbackParams, introspect, pkcePair } from "../support/oidc.ts";

// RFC 7591 registration of mobile application instances under the fixture's mobile-app, driven by
// oauth4webapi and openid-client; then each instance signs a user in, shows up under the user's
// /apps, and dies with its tokens when removed there.

const insecure = { [oauth.allowInsecureRequests]: true };
const APP_URI = "ru.example.mobile:/oauth2redirect";
const SOFTWARE = "mobile-sdk";

const initialAccessToken = () => systemToken("mobile-app", "idp_dyn_reg");
const appsToken = () => systemToken("users-app", "idp_api_sys_uapps");
const appsChangeToken = () => systemToken("users-app", "idp_api_sys_uapps_chg");

async function authorizationServer(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base());
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
}

/** POST /oauth/register as raw HTTP, for the refusals a library would not send. */
async function registerRaw(body: unknown, token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  return request("/oauth/register", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

const registerPublic = async (extra: Record<string, unknown> = {}) => {
  const r = await registerRaw({ software_id: SOFTWARE, token_endpoint_auth_method: "none", ...extra }, await initialAccessToken());
  if (r.status !== 201) throw new Error(`registration failed: ${r.status} ${r.text}`);
  return r.body as { client_id: string };
};

/** Signs `user` in through an instance (code + PKCE, the form over plain HTTP); returns the redirect back to the app. */
async function signInThrough(clientId: string, user: { sub: string; password: string }, scope = "openid offline_access idp_api_user") {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString("hex");
  const url = authorizeUrl({ response_type: "code", client_id: clientId, redirect_uri: APP_URI, scope, state, code_challenge: challenge, code_challenge_method: "S256" });
  const page = await authorizeThrough(new Browser({ "x-forwarded-for": uniqueIp() }), url, { identifier: user.sub, password: user.password });
  return { page, verifier, state };
}

async function appsOf(sub: string) {
  const r = await api("GET", `/api/v3/users/${sub}/apps`, { token: await appsToken() });
  expect(r.status).toBe(200);
  return r.body as Record<string, unknown>[];
}

describe("POST /oauth/register (RFC 7591) with oauth4webapi, a public instance", () => {
  it("registers, signs the user in with code + PKCE, is listed under /apps, and removing it ends its tokens", async () => {
    const as = await authorizationServer();
    expect(as.registration_endpoint).toBe(`${base()}/oauth/register`);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { software_id: SOFTWARE, software_version: "2.4.1", client_name: "Телефон Иванова", token_endpoint_auth_method: "none", redirect_uris: [APP_URI] },
        { initialAccessToken: await initialAccessToken(), ...insecure },
      ),
    );
    expect(registered).toMatchObject({
      client_id: expect.stringMatching(/^dyn-[A-Za-z0-9_-]{22}$/),
      client_name: "Телефон Иванова",
      token_endpoint_auth_method: "none",
      redirect_uris: ["https://mobile.example.test/cb", APP_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "openid profile email phone offline_access idp_api_user",
      software_id: SOFTWARE,
      software_version: "2.4.1",
    });
    expect(registered.client_secret).toBeUndefined();
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" };

    const user = await createUserWithPassword();
    expect((await appsOf(user.sub)).filter((a) => a.kind === "app_instance")).toEqual([]);
    const { page, verifier, state } = await signInThrough(client.client_id, user);
    const params = oauth.validateAuthResponse(as, client, new URL(page.location!), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, APP_URI, verifier, insecure),
    );
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({ sub: user.sub, aud: client.client_id });
    const me = await request("/oauth/me", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me).toMatchObject({ status: 200, body: { sub: user.sub } });

    const apps = await appsOf(user.sub);
    expect(apps.find((a) => a.id === client.client_id)).toEqual({
      id: client.client_id,
      kind: "app_instance",
      name: "Телефон Иванова",
      firstSeen: expect.any(Number),
      lastSeen: expect.any(Number),
      lastIp: null,
      clientId: client.client_id,
      parentClientId: "mobile-app",
      softwareId: SOFTWARE,
      softwareVersion: "2.4.1",
    });

    const removed = await api("DELETE", `/api/v3/users/${user.sub}/apps/${client.client_id}`, { token: await appsChangeToken() });
    expect(removed.status).toBe(204);
    expect((await request("/oauth/me", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    expect(refreshed.status).toBe(401);
    expect(await refreshed.json()).toMatchObject({ error: "invalid_client" });
    expect((await appsOf(user.sub)).some((a) => a.id === client.client_id)).toBe(false);
    expect((await api("DELETE", `/api/v3/users/${user.sub}/apps/${client.client_id}`, { token: await appsChangeToken() })).status).toBe(404);
  });
});

describe("POST /oauth/register with openid-client, a confidential instance", () => {
  it("gets a secret once, which authenticates it at the token endpoint; the instance signs in and refreshes", async () => {
    const config = await oidc.dynamicClientRegistration(
      new URL(base()),
      { software_id: SOFTWARE, redirect_uris: [APP_URI], grant_types: ["authorization_code", "refresh_token"], scope: "openid idp_api_user" },
      undefined,
      { initialAccessToken: await initialAccessToken(), execute: [oidc.allowInsecureRequests] },
    );
    const meta = config.clientMetadata();
    expect(meta).toMatchObject({ token_endpoint_auth_method: "client_secret_basic", client_secret_expires_at: 0, client_name: "Mobile application (parent of dynamically registered instances)" });
    expect(meta.client_secret).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{43}$/));

    const user = await createUserWithPassword();
    const { page, verifier, state } = await signInThrough(meta.client_id, user);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.location!), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()).toMatchObject({ sub: user.sub, aud: meta.client_id });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const wrong = await request("/oauth/te", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshed.refresh_token!, client_id: meta.client_id, client_secret: "not-the-secret" }).toString(),
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    // The secret is shown once and never logged.
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain(meta.client_secret as string);
  });
});

describe("POST /oauth/register refusals", () => {
  it("needs the parent's token with the idp_dyn_reg scope (RFC 6750 errors)", async () => {
    const body = { software_id: SOFTWARE, token_endpoint_auth_method: "none" };
    const none = await registerRaw(body);
    expect(none).toMatchObject({ status: 401, body: { error: "invalid_token" } });
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await registerRaw(body, "not.a.token")).toMatchObject({ status: 401, body: { error: "invalid_token" } });
    const otherScope = await registerRaw(body, await systemToken("users-app", "idp_api_sys_users"));
    expect(otherScope).toMatchObject({ status: 401, body: { error: "insufficient_scope" } });
    const user = await createUserWithPassword();
    const { client_id } = await registerPublic();
    const { page, verifier } = await signInThrough(client_id, user, "openid idp_api_user");
    const code = callbackParams(page).get("code")!;
    const userToken = await request("/oauth/te", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: APP_URI, code_verifier: verifier, client_id }).toString(),
    });
    expect(await registerRaw(body, userToken.body.access_token)).toMatchObject({ status: 401, body: { error: "invalid_token" } });
  });

  it("refuses software ids the parent does not admit and metadata beyond the parent's (RFC 7591 §3.2.2)", async () => {
    const token = await initialAccessToken();
    const refused = async (body: unknown, error: string) => {
      const r = await registerRaw(body, token);
      expect(r, JSON.stringify(body)).toMatchObject({ status: 400, body: { error, error_description: expect.any(String) } });
    };
    await refused({ software_id: "other-sdk" }, "invalid_client_metadata");
    await refused({ token_endpoint_auth_method: "none" }, "invalid_client_metadata");
    await refused({ software_id: SOFTWARE, redirect_uris: ["https://evil.example/cb"] }, "invalid_redirect_uri");
    await refused({ software_id: SOFTWARE, grant_types: ["client_credentials"] }, "invalid_client_metadata");
    await refused({ software_id: SOFTWARE, scope: "openid idp_api_sys_users" }, "invalid_client_metadata");
    await refused({ software_id: SOFTWARE, response_types: ["token"] }, "invalid_client_metadata");
    await refused({ software_id: SOFTWARE, token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata");
    await refused([SOFTWARE], "invalid_client_metadata");
    const notJson = await registerRaw("{", token);
    expect(notJson).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    // Unknown metadata is ignored (RFC 7591 §2).
    expect((await registerRaw({ software_id: SOFTWARE, token_endpoint_auth_method: "none", logo_uri: "https://x.example/l.png" }, token)).status).toBe(201);
  });
});

describe("binding an instance to an account", () => {
  it("refuses a sign-in of another account through an instance bound already", async () => {
    const [first, second] = [await createUserWithPassword(), await createUserWithPassword()];
    const { client_id } = await registerPublic();
    expect(callbackParams((await signInThrough(client_id, first)).page).get("code")).toEqual(expect.any(String));
    const refused = callbackParams((await signInThrough(client_id, second)).page);
    expect(refused.get("error")).toBe("access_denied");
    expect(refused.get("code")).toBeNull();
    expect((await appsOf(second.sub)).some((a) => a.id === client_id)).toBe(false);
    expect((await appsOf(first.sub)).some((a) => a.id === client_id)).toBe(true);
  });

  it("bindDynClient binds free instances of the calling application at registration, also once the contacts are confirmed", async () => {
    const regAsParent = await systemToken("mobile-app", "idp_api_sys_users_reg");
    const register = (body: unknown, token = regAsParent) => api("PUT", "/reg/api/v3/users", { token, body });
    const bind = (client_id: string) => [{ type: "bindDynClient", client_id }];

    const now = await registerPublic();
    const sub = unique("dyn-");
    const created = await register({ user: { attrs: { sub, family_name: "Мобильный" } }, actions: bind(now.client_id) });
    expect(created).toMatchObject({ status: 200, body: { subject: sub } });
    expect((await appsOf(sub)).find((a) => a.id === now.client_id)).toMatchObject({ kind: "app_instance", parentClientId: "mobile-app" });

    const again = await register({ user: { attrs: { sub: unique("dyn-") } }, actions: bind(now.client_id) }, regAsParent);
    expect(again).toMatchObject({ status: 400, body: { errors: [{ field: "actions[0].client_id", errMsg: expect.stringContaining("уже привязан") }], context: "" } });
    const foreign = await registerPublic();
    const byOther = await register({ user: { attrs: { sub: unique("dyn-") } }, actions: bind(foreign.client_id) }, await systemToken("users-app", "idp_api_sys_users_reg"));
    expect(byOther).toMatchObject({ status: 400, body: { errors: [{ field: "actions[0].client_id", errMsg: `Неизвестный динамический клиент ${foreign.client_id}` }] } });

    const later = await registerPublic();
    const phone = uniquePhone();
    const waiting = unique("dyn-");
    const { result: pending, code } = await codeAfter(phone, () => register({ user: { attrs: { sub: waiting, phone_number: { value: phone, verified: false } } }, actions: bind(later.client_id) }));
    expect(pending.body).toMatchObject({ context: expect.any(String) });
    const done = await api("POST", `/reg/api/v3/users/${pending.body.context}`, { token: regAsParent, body: { sms_code: code } });
    expect(done).toMatchObject({ status: 200, body: { subject: waiting } });
    expect((await appsOf(waiting)).some((a) => a.id === later.client_id)).toBe(true);
  });
});
