import { createHash, randomUUID } from "node:crypto";
import { recordEvent } from "../../audit/audit.service.ts";
import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { hashOpaqueToken, newOpaqueToken, sameSecret } from "../../crypto/opaque-token.ts";
import { inTransaction } from "../../db/index.ts";
import { revokeAccessTokenIds } from "../tokens/revocation.service.ts";
import { findCode, insertCode, markCodeUsed, type TCodeRedemption, type TCodeRow } from "./authorization-codes.repository.ts";
import { revokeFamily, storeRefreshToken } from "./refresh-tokens.service.ts";
import { invalidGrant, prepareUserTokens, requireActiveAccount, type TTokenSet, type TUserGrant } from "./user-tokens.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredCodes } from "./authorization-codes.repository.ts";

/** RFC 6749 §4.1.2 recommends at most ten minutes; a browser round trip needs seconds. */
export const CODE_TTL_MS = 60_000;

/** What a user granted a client in one authorization: the code stands for it until redeemed. */
export type TGrant = Omit<TCodeRow, "codeHash" | "expiresAt">;

/** Issues a single-use authorization code; only its hash is stored. */
export async function issueAuthorizationCode(grant: TGrant, now = new Date()): Promise<string> {
  const code = newOpaqueToken();
  await insertCode({ ...grant, codeHash: hashOpaqueToken(code), expiresAt: new Date(now.getTime() + CODE_TTL_MS) });
  return code;
}

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 §4.6 with S256; a verifier without a challenge is refused too (no downgrade, RFC 9700 §2.1.1). */
function checkPkce(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined) throw invalidGrant("code_verifier given, but the authorization request had no code_challenge");
    return;
  }
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) throw invalidGrant("code_verifier is missing or malformed");
  const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
  if (!sameSecret(computed, challenge)) throw invalidGrant("code_verifier does not match the code_challenge");
}

/** A second use of a code: what the first use issued is revoked (RFC 6749 §4.1.2), and it is an audit event. */
async function revokeWhatCodeIssued(row: TCodeRow & TCodeRedemption, now: Date): Promise<void> {
  if (row.accessJti && row.accessExpiresAt) await revokeAccessTokenIds([{ jti: row.accessJti, expiresAt: row.accessExpiresAt }], now);
  if (row.familyId) await revokeFamily(row.familyId, now);
  await recordEvent("oauth.code_reused", { subject: row.userId, clientId: row.clientId }, {});
}

/** The authorization_code grant: one use, in time, by its client, with its redirect URI and PKCE verifier. */
export async function redeemAuthorizationCode(
  input: { client: TClientAuthRow; code: string; redirectUri: string | undefined; codeVerifier: string | undefined },
  now = new Date(),
): Promise<TTokenSet> {
  const codeHash = hashOpaqueToken(input.code);
  const row = await findCode(codeHash);
  if (!row || row.clientId !== input.client.id) throw invalidGrant("the authorization code is invalid");
  if (row.usedAt) {
    await revokeWhatCodeIssued(row, now);
    throw invalidGrant("the authorization code was used already; the tokens it issued are revoked");
  }
  if (row.expiresAt <= now) throw invalidGrant("the authorization code has expired");
  if (input.redirectUri !== row.redirectUri) throw invalidGrant("redirect_uri does not match the authorization request");
  checkPkce(row.codeChallenge, input.codeVerifier);
  await requireActiveAccount(row.userId);
  const grant: TUserGrant = { userId: row.userId, scopes: row.scopes, sessionId: row.sessionId, authTime: row.authTime, amr: row.amr, acr: row.acr };
  const prepared = await prepareUserTokens(input.client, grant, { nonce: row.nonce, now });
  const familyId = prepared.refresh ? randomUUID() : null;
  const redeemed = await inTransaction(async (tx) => {
    const issued = { usedAt: now, accessJti: prepared.access.jti, accessExpiresAt: prepared.access.expiresAt, familyId };
    if (!(await markCodeUsed(codeHash, issued, tx))) return false;
    if (familyId) await storeRefreshToken(prepared, familyId, row.clientId, grant, tx);
    return true;
  });
  if (!redeemed) {
    // A parallel redemption won: this is the second use.
    await revokeWhatCodeIssued((await findCode(codeHash))!, now);
    throw invalidGrant("the authorization code was used already; the tokens it issued are revoked");
  }
  return prepared.response;
}
