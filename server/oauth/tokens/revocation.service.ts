import { AppError } from "../../errors/app-error.ts";
import { verifyAccessToken } from "./access-token.ts";
import { publishRevocation } from "./revocation-cache.ts";
import { insertRevokedToken } from "./revocation.repository.ts";

/**
 * Revokes an access token issued to `clientId`. Returns what was revoked, or null when the token is
 * not a live token of that client (already expired, revoked, forged or someone else's).
 */
export async function revokeAccessToken(token: string, clientId: string): Promise<{ jti: string } | null> {
  try {
    const claims = await verifyAccessToken(token);
    if (claims.client_id !== clientId) return null;
    await insertRevokedToken(claims.jti, new Date(claims.exp * 1000));
    await publishRevocation(claims.jti);
    return { jti: claims.jti };
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}
