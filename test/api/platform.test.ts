import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { fixture } from "../support/fixtures.ts";
import { base, request, tokenRequest } from "../support/http.ts";

describe("platform endpoints", () => {
  it("reports liveness and readiness", async () => {
    const live = await request("/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "ok" });
    const ready = await request("/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ok" });
  });

  it("serves everything under the context path and sends / to the console", async () => {
    const root = await fetch(base().replace(/\/idp$/, "/idp"), { redirect: "manual" });
    expect([307, 308]).toContain(root.status);
    expect(root.headers.get("location")).toMatch(/\/idp\/console$/);
    const hostRoot = await fetch(base().replace(/\/idp$/, "/"), { redirect: "manual" });
    expect(hostRoot.status).toBe(307);
    expect(hostRoot.headers.get("location")).toBe("/idp/console");
    const outside = await fetch(base().replace(/\/idp$/, "") + "/oauth/te", { method: "POST" });
    expect(outside.status).toBe(404);
  });

  it.each([
    ["/api/v3/no/such/thing", { type: "not_found_error", error: "not_found", desc: "no_such_operation" }],
    ["/api/v9/users", { type: "not_found_error", error: "not_found", desc: "no_such_operation" }],
    ["/admin/api/v3/nothing", { type: "not_found_error", error: "not_found", desc: "no_such_operation" }],
    ["/reg/api/v3/nothing", { errors: [{ errMsg: "no_such_operation", field: "" }], context: "" }],
    ["/oauth/nothing", { error: "invalid_request", error_description: "no_such_operation" }],
  ])("answers an unknown API path %s with a JSON 404 in its family's shape", async (path, body) => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const r = await request(path, { method });
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toBe("application/json");
      expect(r.body).toEqual(body);
    }
  });

  it("answers a method an operation does not have with a JSON 405 naming the allowed one", async () => {
    const te = await request("/oauth/te");
    expect(te.status).toBe(405);
    expect(te.headers.get("allow")).toBe("POST");
    expect(te.body).toEqual({ error: "invalid_request", error_description: "method_not_allowed" });
    const jwks = await request("/.well-known/jwks.json", { method: "DELETE" });
    expect(jwks.status).toBe(405);
    expect(jwks.headers.get("allow")).toBe("GET");
    expect(jwks.body).toEqual({ type: "method_error", error: "method_not_allowed", desc: "method_not_allowed" });
  });

  it("echoes a sane X-Request-Id and replaces an unsafe one", async () => {
    const kept = await request("/health/live", { headers: { "x-request-id": "client-trace-0001" } });
    expect(kept.headers.get("x-request-id")).toBe("client-trace-0001");
    const replaced = await request("/health/live", { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("publishes discovery metadata and the signing keys", async () => {
    const d = await request("/.well-known/openid-configuration");
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      issuer: base(),
      token_endpoint: `${base()}/oauth/te`,
      jwks_uri: `${base()}/.well-known/jwks.json`,
      revocation_endpoint: `${base()}/oauth/revoke`,
      authorization_endpoint: `${base()}/oauth/ae`,
      userinfo_endpoint: `${base()}/oauth/me`,
      introspection_endpoint: `${base()}/oauth/introspect`,
      end_session_endpoint: `${base()}/oauth/logout`,
      grant_types_supported: ["client_credentials", "authorization_code", "refresh_token"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      id_token_signing_alg_values_supported: ["ES256"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["openid", "profile", "email", "phone", "offline_access"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    });
    const jwks = await request("/.well-known/jwks.json");
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    const key = jwks.body.keys[0];
    expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: expect.any(String) });
    expect(key.d).toBeUndefined();
    const token = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["post-app", "post-secret-123"] });
    const header = JSON.parse(Buffer.from(token.body.access_token.split(".")[0], "base64url").toString());
    expect(header.kid).toBe(key.kid);
  });

  it("serves the OpenAPI 3.1 document with its security schemes and the reference page", async () => {
    const doc = await request("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(doc.body.servers).toEqual([{ url: base() }]);
    expect(doc.body.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      basicAuth: { type: "http", scheme: "basic" },
      clientCredentials: { type: "oauth2", flows: { clientCredentials: { tokenUrl: `${base()}/oauth/te` } } },
    });
    const te = doc.body.paths["/oauth/te"].post;
    expect(Object.keys(te.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "413", "500"]));
    expect(te.requestBody.content["application/x-www-form-urlencoded"]).toBeDefined();
    const page = await request("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Scalar renders it in the browser (e2e/api-docs.spec.ts) from the document.
    expect(page.text).toContain('<div id="api-reference" data-configuration="');
  });

  it("never writes a secret, password or token to the log", async () => {
    const token = await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["post-app", "post-secret-123"] });
    await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["post-app", "wrong-password-xyz"] });
    await new Promise((r) => setTimeout(r, 200));
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).toContain('"path":"/oauth/te"');
    const te = log.split("\n").filter((l) => l.includes('"path":"/oauth/te"')).map((l) => JSON.parse(l));
    expect(te.find((l) => l.requestId === token.headers.get("x-request-id"))).toMatchObject({ status: 200, client: "post-app" });
    const secrets = [...fixture.clients.flatMap((c) => [c.secret ?? "\u0000", c.restPassword ?? "\u0000"]), token.body.access_token, "wrong-password-xyz", inject("adminPassword")];
    for (const s of secrets) expect(log).not.toContain(s);
    // Every line is JSON except the start banner Next prints itself.
    const jsonLines = log.split("\n").filter((l) => l.startsWith("{"));
    expect(jsonLines.length).toBeGreaterThan(3);
    for (const l of jsonLines) expect(() => JSON.parse(l)).not.toThrow();
  });
});
