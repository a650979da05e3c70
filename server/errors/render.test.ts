import { describe, expect, it } from "vitest";
import { AppError } from "./app-error.ts";
import { renderError } from "./render.ts";

async function render(e: AppError, shape: Parameters<typeof renderError>[1]) {
  const res = renderError(e, shape, "req-123456");
  return { status: res.status, headers: new Headers(res.headers), body: JSON.parse(res.body) as Record<string, unknown> };
}

describe("renderError", () => {
  it("renders an expired token as the contract's security_error with a Bearer challenge", async () => {
    const r = await render(new AppError("auth.token_expired"), "v3");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "expired_access_token" });
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="idp", error="invalid_token", error_description="expired_access_token"');
  });

  it("sends a bare Bearer challenge when no token was sent (RFC 6750 §3.1)", async () => {
    const r = await render(new AppError("auth.token_missing"), "v3");
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="idp"');
  });

  it("names the missing scopes in desc and in the challenge", async () => {
    const e = new AppError("auth.scope_missing", { desc: "missing scopes: a or b", params: { scopes: ["a", "b"] } });
    const r = await render(e, "v3");
    expect(r.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing scopes: a or b" });
    expect(r.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(r.headers.get("www-authenticate")).toContain('scope="a b"');
  });

  it("renders input_error items with pos and params", async () => {
    const e = new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "must be a string", pos: "name" }] });
    const r = await render(e, "v3");
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      type: "input_error",
      error: "wrong_values",
      errors: [{ type: "input_error", error: "wrong_value", desc: "must be a string", pos: "name", params: {} }],
    });
  });

  it("renders process_error with params", async () => {
    const r = await render(new AppError("client.already_exists", { params: { rpId: "x" } }), "v3");
    expect(r.body).toEqual({ type: "process_error", error: "client_exists", desc: "client application already exists", params: { rpId: "x" } });
  });

  it("renders a 500 with the request id and nothing else", async () => {
    const r = await render(new AppError("internal"), "v3");
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      type: "internal_error",
      error: "internal_error",
      desc: "unexpected error; quote the requestId when reporting it",
      requestId: "req-123456",
    });
  });

  it("renders RFC 6749 errors with no-store, no-cache and a Basic challenge on 401", async () => {
    const r = await render(new AppError("oauth.invalid_client", { desc: "client authentication failed" }), "oauth");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "invalid_client", error_description: "client authentication failed" });
    expect(r.headers.get("www-authenticate")).toBe('Basic realm="idp", charset="UTF-8"');
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("pragma")).toBe("no-cache");
    const internal = await render(new AppError("internal"), "oauth");
    expect(internal.body.error).toBe("server_error");
  });

  it("answers a refused bearer token at an OAuth endpoint (userinfo) with a Bearer challenge (RFC 6750 §3)", async () => {
    const r = await render(new AppError("auth.token_revoked"), "oauth");
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "invalid_token", error_description: "revoked_access_token" });
    expect(r.headers.get("www-authenticate")).toBe('Bearer realm="idp", error="invalid_token", error_description="revoked_access_token"');
  });

  it("renders the v2 and registration shapes", async () => {
    const e = new AppError("request.invalid_values", { items: [{ error: "validation_error", desc: "empty subject", pos: "subject" }] });
    expect((await render(e, "v2")).body).toEqual({ errors: [{ code: "validation_error", desc: "empty subject", params: { field: "subject" } }] });
    expect((await render(e, "registration")).body).toEqual({ errors: [{ errMsg: "empty subject", field: "subject" }], context: "" });
  });
});
