import { describe, expect, it } from "vitest";
import { ZFaBindBody } from "./bind-flow.routes.ts";
import { errorOutcome, outcomeUrl } from "./bind-outcome.ts";
import { isStale } from "./fed-tokens.service.ts";
import { claimText, tokensOf } from "./identity.service.ts";
import { basicCredentials } from "./provider-http.ts";
import { pkceChallenge } from "./start.service.ts";
import { AppError } from "../../errors/app-error.ts";

const provider = { provider: { fpType: "oidc" as const, fpName: "corp" } };

describe("the redirect flow's pure parts", () => {
  it("computes the RFC 7636 appendix B challenge", () => {
    expect(pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("encodes client credentials as RFC 6749 §2.3.1 says (form-encoded, then base64)", () => {
    const decoded = Buffer.from(basicCredentials("my app", "s:e/c+r%t").slice(6), "base64").toString();
    expect(decoded).toBe("my+app:s%3Ae%2Fc%2Br%25t");
  });

  it("reads a claim as text: strings and numbers, nothing else", () => {
    const claims = { sub: "abc", id: 12345, empty: "", obj: { a: 1 }, flag: true, nan: Number.NaN };
    expect(claimText(claims, "sub")).toBe("abc");
    expect(claimText(claims, "id")).toBe("12345");
    for (const name of ["empty", "obj", "flag", "nan", "missing"]) expect(claimText(claims, name)).toBeUndefined();
  });

  it("takes tokens and their expiry from a token response, refusing one without an access token", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(tokensOf({ access_token: "at", refresh_token: "rt", expires_in: 60 }, now)).toEqual({ accessToken: "at", refreshToken: "rt", expiresAt: new Date(now + 60_000) });
    expect(tokensOf({ access_token: "at", expires_in: "120" }, now)).toEqual({ accessToken: "at", refreshToken: undefined, expiresAt: new Date(now + 120_000) });
    expect(tokensOf({ access_token: "at", refresh_token: "", expires_in: -5 }, now)).toEqual({ accessToken: "at", refreshToken: undefined, expiresAt: undefined });
    expect(tokensOf({ token_type: "Bearer" }, now)).toBeUndefined();
    // Past ten years (a huge number would be an Invalid Date) or zero: the expiry is unknown.
    const tenYears = 10 * 365 * 24 * 3600;
    expect(tokensOf({ access_token: "at", expires_in: tenYears }, now)?.expiresAt).toEqual(new Date(now + tenYears * 1000));
    for (const expires_in of [tenYears + 1, 8.7e12, 1e308, "1e400", 0, "abc"]) expect(tokensOf({ access_token: "at", expires_in }, now)?.expiresAt, String(expires_in)).toBeUndefined();
    expect(tokensOf({ access_token: 42 }, now)).toBeUndefined();
  });

  it("counts a token stale when its remaining life is below the minimum; one without expiry never is", () => {
    const now = 1_000_000;
    expect(isStale(new Date(now + 29_000), 30, now)).toBe(true);
    expect(isStale(new Date(now + 31_000), 30, now)).toBe(false);
    expect(isStale(new Date(now - 1), 0, now)).toBe(true);
    expect(isStale(null, 86_400, now)).toBe(false);
  });

  it("adds the outcome to the application's callback, keeping its own query", () => {
    const ok = new URL(outcomeUrl("https://app.example/cb?x=1&result=forged", provider, { result: "bound", sid: "a b&c" }));
    expect(Object.fromEntries(ok.searchParams)).toEqual({ x: "1", fp: "oidc:corp", result: "bound", sid: "a b&c" });
    const failed = new URL(outcomeUrl("https://app.example/cb", provider, errorOutcome(new AppError("federation.sid_bound"))));
    expect(Object.fromEntries(failed.searchParams)).toEqual({ fp: "oidc:corp", result: "error", error: "fa_bound_to_other_user", error_description: "this external account is bound to another user" });
  });

  it("parses fp as <fpType>:<fpName> and nothing else", () => {
    const body = (fp: string) => ZFaBindBody.safeParse({ fp, callback: "https://app.example/cb" });
    expect(body("oidc:corp").data?.fp).toEqual({ fpType: "oidc", fpName: "corp" });
    expect(body("oauth2:so.cial-1").data?.fp).toEqual({ fpType: "oauth2", fpName: "so.cial-1" });
    for (const bad of ["corp", "saml:corp", "oidc:", "oidc:a/b", ":corp", "OIDC:corp"]) expect(body(bad).success, bad).toBe(false);
  });
});
