import { createHmac } from "node:crypto";
import { AUTH_APPS, AUTH_APP_NAMES, type TAuthApp } from "../auth/apps.ts";
import { getConfig } from "../config/config.ts";
import { keyFor } from "../crypto/keys.ts";
import type { TClientWrite } from "./clients.repository.ts";

/** Scopes the console and portal ask for: who signed in, with name and contacts for display. */
export const BUILTIN_SCOPES = "openid profile email phone";

export const BUILTIN_CLIENT_IDS: readonly string[] = AUTH_APP_NAMES.map((app) => AUTH_APPS[app].clientId);

export function isBuiltinClient(id: string): boolean {
  return BUILTIN_CLIENT_IDS.includes(id);
}

/**
 * The secret of a built-in client, derived from the server key rather than generated: every instance
 * computes the same one, so nothing is stored in plain text or printed, and a new IDP_SECRET_KEY
 * brings a new secret (the stored hash follows at the next start).
 */
export function builtinClientSecret(clientId: string): string {
  return createHmac("sha256", keyFor("builtin-clients")).update(clientId).digest("base64url");
}

/** next-auth's callback under NEXTAUTH_URL (`{issuer}/api/auth`), named after the provider id. */
export function builtinRedirectUri(app: TAuthApp): string {
  return `${getConfig().issuer}/api/auth/callback/${AUTH_APPS[app].clientId}`;
}

/** What a built-in client must be, for the issuer this server runs under. */
export function builtinClientShape(app: TAuthApp): Omit<TClientWrite, "secretHash" | "restPasswordHash"> {
  const { issuer } = getConfig();
  return {
    name: AUTH_APPS[app].name,
    type: "confidential",
    firstParty: true,
    grantTypes: ["authorization_code"],
    scopes: [],
    userScopes: [],
    redirectUris: [builtinRedirectUri(app)],
    postLogoutRedirectUris: [`${issuer}${AUTH_APPS[app].signIn}`],
    accessTokenTtl: null,
    refreshTokenTtl: null,
    idTokenTtl: null,
    tlsCns: [],
    enabled: true,
  };
}
