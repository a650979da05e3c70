import { randomUUID } from "node:crypto";
import { recordEvent } from "../../audit/audit.service.ts";
import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { hashOpaqueToken } from "../../crypto/opaque-token.ts";
import { inTransaction, type TTx } from "../../db/index.ts";
import { getConfig } from "../../config/config.ts";
import { AppError } from "../../errors/app-error.ts";
import { revokeAccessTokenIds } from "../tokens/revocation.service.ts";
import { findFamiliesOf, findRefreshToken, insertRefreshToken, markRotated, revokeFamilyRows, type TStoredRefresh } from "./refresh-tokens.repository.ts";
import { invalidGrant, prepareUserTokens, requireActiveAccount, type TPreparedTokens, type TTokenSet, type TUserGrant } from "./user-tokens.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredRefreshTokens } from "./refresh-tokens.repository.ts";

/** Revokes a whole family of refresh tokens and the access tokens issued with them. */
export async function revokeFamily(familyId: string, now = new Date()): Promise<void> {
  const issued = await revokeFamilyRows(familyId, now);
  await revokeAccessTokenIds(issued.map((r) => ({ jti: r.accessJti, expiresAt: r.accessExpiresAt })), now);
}

/** Revokes every refresh token family a user holds for one client, with their access tokens. */
export async function revokeClientGrantsOf(userId: string, clientId: string, now = new Date()): Promise<void> {
  for (const familyId of await findFamiliesOf(userId, clientId)) await revokeFamily(familyId, now);
}

/** Stores the refresh token of prepared tokens (if they have one) as a member of `familyId`. */
export async function storeRefreshToken(prepared: TPreparedTokens, familyId: string, clientId: string, grant: TUserGrant, tx: TTx): Promise<void> {
  if (!prepared.refresh) return;
  await insertRefreshToken(
    {
      id: randomUUID(),
      tokenHash: prepared.refresh.hash,
      familyId,
      clientId,
      ...grant,
      accessJti: prepared.access.jti,
      accessExpiresAt: prepared.access.expiresAt,
      expiresAt: prepared.refresh.expiresAt,
    },
    tx,
  );
}

function narrowScopes(row: TStoredRefresh, scope: string | undefined): string[] {
  if (scope === undefined) return row.scopes;
  const requested = [...new Set(scope.split(" ").filter(Boolean))];
  const beyond = requested.filter((s) => !row.scopes.includes(s));
  if (requested.length === 0 || beyond.length) throw new AppError("oauth.invalid_scope", { desc: "scope may only narrow what was granted" });
  return requested;
}

/** A refresh token that is current: not rotated, not revoked, not expired. */
export async function findLiveRefreshToken(token: string, now = new Date()): Promise<TStoredRefresh | null> {
  const row = await findRefreshToken(hashOpaqueToken(token));
  return row && !row.rotatedAt && !row.revokedAt && row.expiresAt > now ? row : null;
}

/**
 * The refresh_token grant (RFC 6749 §6) with rotation: the token presented is used up and a new one
 * of the same family comes back. A token used before is a stolen copy or a replay: the whole family
 * is revoked, so whichever party holds the current one loses it too (OAuth 2.0 Security BCP §4.14).
 */
export async function refreshGrant(input: { client: TClientAuthRow; token: string; scope?: string }, now = new Date()): Promise<TTokenSet> {
  const row = await findRefreshToken(hashOpaqueToken(input.token));
  if (!row || row.clientId !== input.client.id) throw invalidGrant("the refresh token is invalid");
  if (row.revokedAt) throw invalidGrant("the refresh token was revoked");
  const reuse = async () => {
    await revokeFamily(row.familyId, now);
    await recordEvent("oauth.refresh_reused", { subject: row.userId, clientId: row.clientId }, { family: row.familyId });
    return invalidGrant("the refresh token was used already; its family is revoked");
  };
  if (row.rotatedAt) throw await reuse();
  if (row.expiresAt <= now) throw invalidGrant("the refresh token has expired");
  if (row.authTime.getTime() + getConfig().refreshFamilyMaxTtl * 1000 <= now.getTime()) {
    throw invalidGrant("the sign-in this refresh token comes from is older than refresh tokens may live; sign the user in again");
  }
  const scopes = narrowScopes(row, input.scope);
  await requireActiveAccount(row.userId);
  const grant: TUserGrant = { userId: row.userId, scopes: row.scopes, sessionId: row.sessionId, authTime: row.authTime, amr: row.amr, acr: row.acr };
  const prepared = await prepareUserTokens(input.client, grant, { scopes, now });
  const rotated = await inTransaction(async (tx) => {
    if (!(await markRotated(row.id, now, tx))) return false;
    await storeRefreshToken(prepared, row.familyId, row.clientId, grant, tx);
    return true;
  });
  if (!rotated) throw await reuse();
  return prepared.response;
}

/** RFC 7009 for a refresh token of `clientId`: its family and their access tokens go. */
export async function revokeRefreshToken(token: string, clientId: string): Promise<{ familyId: string } | null> {
  const row = await findRefreshToken(hashOpaqueToken(token));
  if (!row || row.clientId !== clientId || row.revokedAt) return null;
  await revokeFamily(row.familyId);
  return { familyId: row.familyId };
}
