import { describe, expect, it } from "vitest";
import { ROUTES } from "../api/catalog.ts";
import { isKnownSystemScope, isKnownUserScope, SYSTEM_SCOPES, unknownScopeProblems, USER_SCOPES } from "./known-scopes.ts";

/** Every scope some operation accepts, by mode; a templated one (fed_tkn_{…}) as it is written. */
function catalogScopes() {
  const system = new Set<string>();
  const user = new Set<string>();
  for (const { operation: op } of ROUTES) {
    if (op.auth.kind === "bearer") {
      for (const s of op.auth.system ?? []) system.add(s);
      for (const s of op.auth.user ?? []) user.add(s);
    } else if (op.auth.kind === "basic") {
      for (const s of op.auth.scopes ?? []) system.add(s);
    }
  }
  return { system, user };
}

describe("known scopes", () => {
  it("are exactly the scopes the API's operations accept", () => {
    const { system, user } = catalogScopes();
    expect([...system].filter((s) => !s.includes("{")).sort()).toEqual([...SYSTEM_SCOPES].sort());
    expect([...system].filter((s) => s.includes("{"))).toEqual(["fed_tkn_{fedPointType}_{fedPointName}"]);
    expect([...user].filter((s) => s !== "openid").sort()).toEqual([...USER_SCOPES].sort());
  });

  it("know a provider's token scope by its shape, and the standard scopes as user scopes", () => {
    expect(isKnownSystemScope("fed_tkn_oidc_google")).toBe(true);
    expect(isKnownSystemScope("fed_tkn_oauth2_my.corp-1")).toBe(true);
    expect(isKnownSystemScope("fed_tkn_saml_google")).toBe(false);
    expect(isKnownSystemScope("fed_tkn_oidc_")).toBe(false);
    expect(isKnownUserScope("offline_access")).toBe(true);
    expect(isKnownUserScope("idp_api_sys_users")).toBe(false);
  });

  it("name each unknown scope, and let a client keep one it already holds", () => {
    expect(unknownScopeProblems({ scopes: ["idp_api_sys_users", "x"], userScopes: ["y"] })).toEqual([
      { path: "scopes", message: "unknown system scope: x" },
      { path: "userScopes", message: "unknown user scope: y" },
    ]);
    expect(unknownScopeProblems({ scopes: ["legacy"], userScopes: [] }, { scopes: ["legacy"], userScopes: [] })).toEqual([]);
  });
});
