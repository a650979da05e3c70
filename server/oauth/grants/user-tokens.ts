import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { getConfig } from "../../config/config.ts";
import { hashOpaqueToken, newOpaqueToken } from "../../crypto/opaque-token.ts";
import { AppError } from "../../errors/app-error.ts";
import { findActiveAccount } from "../../users/account-snapshots.ts";
import { issueAccessToken } from "../tokens/access-token.ts";
import { issueIdToken } from "../tokens/id-token.ts";

/** RFC 6749 §5.1 token response, with an ID token for openid and a refresh token for offline_access. */
export type TTokenSet = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
};

/** Who signed in, how and when, and what they granted: what every token of a grant is issued from. */
export type TUserGrant = {
  userId: string;
  scopes: string[];
  sessionId: string | null;
  authTime: Date;
  amr: string[];
  acr: string;
};

export type TPreparedTokens = {
  response: TTokenSet;
  access: { jti: string; expiresAt: Date };
  refresh?: { hash: string; expiresAt: Date };
};

export function invalidGrant(desc: string): AppError {
  return new AppError("oauth.invalid_grant", { desc });
}

/** Tokens go only to an account that still exists and is not locked. */
export async function requireActiveAccount(userId: string): Promise<void> {
  if (!(await findActiveAccount(userId))) throw invalidGrant("the account is locked or no longer exists");
}

/**
 * Signs the tokens of a grant. They are handed out only after the caller has recorded them (a code
 * redeemed, a refresh token rotated), so the access token id is known before anything is stored.
 * `scopes` may narrow the grant's scopes for this access token (RFC 6749 §6).
 */
export async function prepareUserTokens(
  client: TClientAuthRow,
  grant: TUserGrant,
  opts: { scopes?: string[]; nonce?: string | null; now?: Date } = {},
): Promise<TPreparedTokens> {
  const scopes = opts.scopes ?? grant.scopes;
  const access = await issueAccessToken({
    clientId: client.id,
    sub: grant.userId,
    subType: "user",
    scopes,
    ttl: client.accessTokenTtl,
    sessionId: grant.sessionId,
    authTime: grant.authTime,
    amr: grant.amr,
  });
  const response: TTokenSet = { access_token: access.token, token_type: "Bearer", expires_in: access.expiresIn, scope: access.scope };
  if (scopes.includes("openid")) {
    response.id_token = await issueIdToken({ ...grant, clientId: client.id, nonce: opts.nonce, accessToken: access.token, ttl: client.idTokenTtl });
  }
  let refresh: TPreparedTokens["refresh"];
  if (grant.scopes.includes("offline_access") && client.grantTypes.includes("refresh_token")) {
    response.refresh_token = newOpaqueToken();
    const ttl = client.refreshTokenTtl ?? getConfig().refreshTokenTtl;
    // Never past the family's absolute end: IDP_REFRESH_FAMILY_MAX_TTL after the sign-in.
    const familyEnds = grant.authTime.getTime() + getConfig().refreshFamilyMaxTtl * 1000;
    refresh = { hash: hashOpaqueToken(response.refresh_token), expiresAt: new Date(Math.min((opts.now ?? new Date()).getTime() + ttl * 1000, familyEnds)) };
  }
  return { response, access: { jti: access.jti, expiresAt: access.expiresAt }, refresh };
}
