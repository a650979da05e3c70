import { getClientForAuth, issuedToThisClient } from "../clients/clients.service.ts";
import { AppError } from "../errors/app-error.ts";
import { findLiveRefreshToken } from "./grants/refresh-tokens.service.ts";
import { verifyAccessToken } from "./tokens/access-token.ts";

export type TIntrospection = { active: false } | ({ active: true } & Record<string, unknown>);

const INACTIVE: TIntrospection = { active: false };

async function introspectAccess(token: string): Promise<TIntrospection | undefined> {
  try {
    const c = await verifyAccessToken(token);
    // As for a bearer call: a token of a client that is gone (a removed app instance), disabled or
    // deleted and created again is dead.
    const client = await getClientForAuth(c.client_id);
    if (!client?.enabled || !issuedToThisClient(client, c.iat)) return undefined;
    return { active: true, token_type: "Bearer", scope: c.scope, client_id: c.client_id, sub: c.sub, sub_type: c.sub_type, iss: c.iss, exp: c.exp, iat: c.iat, jti: c.jti };
  } catch (e) {
    if (e instanceof AppError) return undefined;
    throw e;
  }
}

/** A refresh token is its client's own: another client learns nothing about it. */
async function introspectRefresh(token: string, clientId: string): Promise<TIntrospection | undefined> {
  const row = await findLiveRefreshToken(token);
  if (!row || row.clientId !== clientId) return undefined;
  const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
  return { active: true, token_type: "refresh_token", scope: row.scopes.join(" "), client_id: row.clientId, sub: row.userId, exp: seconds(row.expiresAt), iat: seconds(row.createdAt) };
}

/**
 * RFC 7662. Any confidential client may ask about access tokens (resource servers are clients too);
 * an unknown, expired, revoked or foreign token is `{"active": false}` and nothing more.
 */
export async function introspect(token: string, hint: string | undefined, clientId: string): Promise<TIntrospection> {
  const looksLikeJwt = token.split(".").length === 3;
  const order = hint === "refresh_token" || !looksLikeJwt ? [introspectRefresh, introspectAccess] : [introspectAccess, introspectRefresh];
  for (const look of order) {
    const found = await look(token, clientId);
    if (found) return found;
  }
  return INACTIVE;
}
