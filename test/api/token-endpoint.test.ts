import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { fixtureClient } from "../support/fixtures.ts";
import { base, request, tokenRequest } from "../support/http.ts";

const svc = fixtureClient("svc-app");
const svcBasic: [string, string] = [svc.id, svc.secret];

function expectNoStore(headers: Headers) {
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("pragma")).toBe("no-cache");
}

function expectOAuthError(r: { status: number; body: any; headers: Headers }, status: number, error: string) {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ error, error_description: expect.any(String) });
  expect(r.headers.get("content-type")).toBe("application/json");
  expectNoStore(r.headers);
}

describe("POST /oauth/te client_credentials", () => {
  it("issues a verifiable JWT for HTTP Basic, with a secret containing ':' and non-ASCII characters", async () => {
    const r = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users idp_rights_full_access" }, { basic: svcBasic });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(r.body).toMatchObject({ token_type: "Bearer", expires_in: 900, scope: "idp_api_sys_users idp_rights_full_access" });
    expectNoStore(r.headers);

    const header = decodeProtectedHeader(r.body.access_token);
    expect(header).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    const jwks = createRemoteJWKSet(new URL(`${base()}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(r.body.access_token, jwks, { issuer: base(), audience: base(), typ: "at+jwt" });
    expect(payload).toMatchObject({ iss: base(), sub: "svc-app", client_id: "svc-app", scope: "idp_api_sys_users idp_rights_full_access", sub_type: "client" });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("gives every token a unique id", async () => {
    const form = { grant_type: "client_credentials", scope: "idp_api_sys_users" };
    const [a, b] = await Promise.all([tokenRequest(form, { basic: svcBasic }), tokenRequest(form, { basic: svcBasic })]);
    const jti = (t: string) => JSON.parse(Buffer.from(t.split(".")[1]!, "base64url").toString()).jti;
    expect(jti(a.body.access_token)).not.toBe(jti(b.body.access_token));
  });

  it("accepts client_secret_post", async () => {
    const r = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users", client_id: "post-app", client_secret: "post-secret-123" });
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe("idp_api_sys_users");
  });

  it("works with a certified OAuth client library (openid-client discovery + client_credentials)", async () => {
    const config = await oidc.discovery(new URL(base()), svc.id, svc.secret, oidc.ClientSecretBasic(svc.secret), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().token_endpoint).toBe(`${base()}/oauth/te`);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "idp_api_sys_users" });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("idp_api_sys_users");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toBeUndefined();
  });

  describe("RFC 6749 §5.2 errors", () => {
    it("invalid_client (401 + Basic challenge) for a wrong secret, an unknown client, no credentials", async () => {
      const form = { grant_type: "client_credentials", scope: "idp_api_sys_users" };
      for (const r of [
        await tokenRequest(form, { basic: [svc.id, "wrong-secret"] }),
        await tokenRequest(form, { basic: ["ghost-app", "whatever"] }),
        await tokenRequest(form),
        await tokenRequest({ ...form, client_id: "post-app", client_secret: "nope" }),
        await tokenRequest(form, { headers: { authorization: "Basic !!!notbase64" } }),
        await tokenRequest(form, { headers: { authorization: "Bearer abc" } }),
      ]) {
        expectOAuthError(r, 401, "invalid_client");
        expect(r.headers.get("www-authenticate")).toMatch(/^Basic realm="idp"/);
      }
    });

    it("invalid_request for two authentication methods, missing or repeated parameters, a wrong content type", async () => {
      expectOAuthError(await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users", client_secret: svc.secret }, { basic: svcBasic }), 400, "invalid_request");
      expectOAuthError(await tokenRequest({ scope: "idp_api_sys_users" }, { basic: svcBasic }), 400, "invalid_request");
      const repeated = await tokenRequest("grant_type=client_credentials&scope=idp_api_sys_users&scope=idp_rights_full_access", { basic: svcBasic });
      expectOAuthError(repeated, 400, "invalid_request");
      expect(repeated.body.error_description).toBe("parameter scope is repeated");
      const json = await tokenRequest(JSON.stringify({ grant_type: "client_credentials" }), { basic: svcBasic, headers: { "content-type": "application/json" } });
      expectOAuthError(json, 400, "invalid_request");
      expect(json.body.error_description).toContain("application/x-www-form-urlencoded");
      const mismatched = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users", client_id: "post-app" }, { basic: svcBasic });
      expectOAuthError(mismatched, 400, "invalid_request");
    });

    it("unsupported_grant_type for grants this server does not offer", async () => {
      for (const grant of ["password", "implicit", "urn:ietf:params:oauth:grant-type:device_code", "magic"]) {
        expectOAuthError(await tokenRequest({ grant_type: grant, scope: "idp_api_sys_users" }, { basic: svcBasic }), 400, "unsupported_grant_type");
      }
    });

    it("unauthorized_client for a grant the server offers but the client may not use", async () => {
      for (const grant of ["authorization_code", "refresh_token"]) {
        expectOAuthError(await tokenRequest({ grant_type: grant, code: "x", refresh_token: "x" }, { basic: svcBasic }), 400, "unauthorized_client");
      }
    });

    it("unauthorized_client for a client without system scopes", async () => {
      const r = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_user" }, { basic: ["no-scope-app", "no-scope-secret"] });
      expectOAuthError(r, 400, "unauthorized_client");
    });

    it("invalid_scope for a scope the client may not have, a missing scope, or a malformed one", async () => {
      const notAllowed = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users idp_api_sys_users_chg" }, { basic: svcBasic });
      expectOAuthError(notAllowed, 400, "invalid_scope");
      expect(notAllowed.body.error_description).toBe("scope not allowed for this client: idp_api_sys_users_chg");
      expectOAuthError(await tokenRequest({ grant_type: "client_credentials" }, { basic: svcBasic }), 400, "invalid_scope");
      expectOAuthError(await tokenRequest({ grant_type: "client_credentials", scope: 'idp"x' }, { basic: svcBasic }), 400, "invalid_scope");
      // A user scope is not a system scope, even when the client may request it for users.
      expectOAuthError(await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_user" }, { basic: svcBasic }), 400, "invalid_scope");
    });
  });

  describe("malformed input never yields a 500", () => {
    it("refuses an oversized body", async () => {
      const r = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users", padding: "x".repeat(70_000) }, { basic: svcBasic });
      expect(r.status).toBe(413);
      expect(r.body.error).toBe("invalid_request");
    });

    it("refuses invalid UTF-8, NUL characters and broken percent-encoding", async () => {
      const bytes = Buffer.concat([Buffer.from("grant_type=client_credentials&scope="), Buffer.from([0xc3, 0x28])]);
      const r1 = await request("/oauth/te", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, body: bytes });
      expectOAuthError(r1, 400, "invalid_request");
      expectOAuthError(await tokenRequest("grant_type=client_credentials&scope=a%00b", { basic: svcBasic }), 400, "invalid_request");
      expectOAuthError(await tokenRequest("grant_type=client_credentials&client_id=a%00b&client_secret=x&scope=a"), 400, "invalid_request");
      const broken = await tokenRequest("grant_type=client_credentials&scope=%E0%A4%A", { basic: svcBasic });
      expect(broken.status).toBeGreaterThanOrEqual(400);
      expect(broken.status).toBeLessThan(500);
      const emoji = await tokenRequest({ grant_type: "client_credentials", scope: "idp_😀" }, { basic: svcBasic });
      expectOAuthError(emoji, 400, "invalid_scope");
      const longId = await tokenRequest({ grant_type: "client_credentials", scope: "a" }, { basic: ["x".repeat(5000), "y"] });
      expectOAuthError(longId, 401, "invalid_client");
    });

    it("ignores unknown parameters, as RFC 6749 §3.2 requires", async () => {
      const r = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users", foo: "bar" }, { basic: svcBasic });
      expect(r.status).toBe(200);
    });

  });

  it("revokes a token (RFC 7009) and answers 200 for tokens the caller cannot revoke", async () => {
    const issued = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: svcBasic });
    const revoke = (token: string, basic: [string, string]) =>
      request("/oauth/revoke", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${basic[0]}:${encodeURIComponent(basic[1])}`).toString("base64")}` },
        body: new URLSearchParams({ token }).toString(),
      });
    expect((await revoke("garbage", ["post-app", "post-secret-123"])).status).toBe(200);
    expect((await revoke(issued.body.access_token, ["post-app", "post-secret-123"])).status).toBe(200);
    expect((await revoke(issued.body.access_token, ["post-app", "wrong"])).status).toBe(401);
  });
});
