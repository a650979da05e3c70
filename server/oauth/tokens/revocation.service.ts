import { AppError } from "../../errors/app-error.ts";
import { verifyAccessToken } from "./access-token.ts";
import { publishRevocation } from "./revocation-cache.ts";
import { insertRevokedToken } from "./revocation.repository.ts";

/** Revokes access tokens by id, in every process at once; ones expired already need nothing. */
export async function revokeAccessTokenIds(tokens: { jti: string; expiresAt: Date }[], now = new Date()): Promise<void> {
  for (const t of tokens) {
    if (t.expiresAt <= now) continue;
    await insertRevokedToken(t.jti, t.expiresAt);
    await publishRevocation(t.jti);
  }
}

/**
 * Revokes an access token issued to `clientId`. Returns what was revoked, or null when the token is
 * not a live token of that client (already expired, revoked, forged or someone else's).
 */
export async function revokeAccessToken(token: string, clientId: string): Promise<{ jti: string } | null> {
  try {
    const claims = await verifyAccessToken(token);
    if (claims.client_id !== clientId) return null;
    await revokeAccessTokenIds([{ jti: claims.jti, expiresAt: new Date(claims.exp * 1000) }]);
    return { jti: claims.jti };
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}
