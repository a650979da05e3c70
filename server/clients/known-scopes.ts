/**
 * The scopes a client application may be given: those the API's operations accept (system scopes
 * for client_credentials tokens, user scopes for tokens issued on a person's behalf) and the
 * standard OpenID Connect ones. A scope outside these is a typo that would fail only at run time, so
 * the console refuses it. The lists are written out, not derived from the route catalog, because the
 * catalog imports every capability, this one included; known-scopes.test.ts keeps them equal to it.
 */
import { DYN_REG_SCOPE } from "./clients.schemas.ts";

export const SYSTEM_SCOPES = [
  "fed_tkn_any",
  "idp_api_otp_full_access",
  "idp_api_sys_groups",
  "idp_api_sys_groups_chg",
  "idp_api_sys_rights_chg",
  "idp_api_sys_uapps",
  "idp_api_sys_uapps_chg",
  "idp_api_sys_uaud",
  "idp_api_sys_ufa",
  "idp_api_sys_ufa_chg",
  "idp_api_sys_usec",
  "idp_api_sys_usec_chg",
  "idp_api_sys_users",
  "idp_api_sys_users_chg",
  "idp_api_sys_users_reg",
  "idp_api_ufa_link",
  DYN_REG_SCOPE,
  "idp_groups",
  "idp_rights_full_access",
  "idp_rm_rights",
] as const;

/** The one scope of a named resource: a token for one external provider's tokens (fed_tkn_{type}_{name}). */
export const PROVIDER_TOKEN_SCOPE = /^fed_tkn_(?:oidc|oauth2)_[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const USER_SCOPES = [
  "idp_api_groups",
  "idp_api_groups_chg",
  "idp_api_otp_full_access",
  "idp_api_uapps",
  "idp_api_uapps_chg",
  "idp_api_uaud",
  "idp_api_ufa",
  "idp_api_ufa_chg",
  "idp_api_ufa_link",
  "idp_api_usec",
  "idp_api_usec_chg",
  "idp_api_user",
  "idp_api_user_chg",
  "idp_api_user_rights",
  "idp_change_password",
  "idp_qr_auth",
  "idp_user_rights",
] as const;

/** OpenID Connect scopes every client may request at sign-in, besides the user scopes it is allowed. */
export const OIDC_SCOPES = ["openid", "profile", "email", "phone", "offline_access"] as const;

const SYSTEM = new Set<string>(SYSTEM_SCOPES);
const USER = new Set<string>([...USER_SCOPES, ...OIDC_SCOPES]);

export function isKnownSystemScope(scope: string): boolean {
  return SYSTEM.has(scope) || PROVIDER_TOKEN_SCOPE.test(scope);
}

export function isKnownUserScope(scope: string): boolean {
  return USER.has(scope);
}

/**
 * Scopes of an edit that no operation knows, each with the field it is in. Scopes a client already
 * holds stay allowed: a client imported with a scope of an older release can still be edited.
 */
export function unknownScopeProblems(next: { scopes: string[]; userScopes?: string[] }, held: { scopes: string[]; userScopes: string[] } = { scopes: [], userScopes: [] }) {
  const problems: { path: string; message: string }[] = [];
  for (const s of next.scopes) if (!isKnownSystemScope(s) && !held.scopes.includes(s)) problems.push({ path: "scopes", message: `unknown system scope: ${s}` });
  for (const s of next.userScopes ?? []) if (!isKnownUserScope(s) && !held.userScopes.includes(s)) problems.push({ path: "userScopes", message: `unknown user scope: ${s}` });
  return problems;
}
