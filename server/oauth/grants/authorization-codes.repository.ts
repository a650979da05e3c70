import { getPrisma, type TTx } from "../../db/index.ts";
import { grantSelectionWhere, type TGrantSelection } from "./refresh-tokens.repository.ts";

export type TCodeRow = {
  codeHash: string;
  clientId: string;
  userId: string;
  sessionId: string | null;
  redirectUri: string;
  scopes: string[];
  nonce: string | null;
  codeChallenge: string | null;
  authTime: Date;
  amr: string[];
  acr: string;
  expiresAt: Date;
};

export type TCodeRedemption = { usedAt: Date | null; accessJti: string | null; accessExpiresAt: Date | null; familyId: string | null };

const CODE = {
  codeHash: true, clientId: true, userId: true, sessionId: true, redirectUri: true, scopes: true, nonce: true,
  codeChallenge: true, authTime: true, amr: true, acr: true, expiresAt: true, usedAt: true, accessJti: true, accessExpiresAt: true, familyId: true,
} as const;

export async function insertCode(row: TCodeRow): Promise<void> {
  const prisma = await getPrisma();
  await prisma.authorizationCode.create({ data: row, select: { codeHash: true } });
}

export async function findCode(codeHash: string, tx?: TTx): Promise<(TCodeRow & TCodeRedemption) | null> {
  const db = tx ?? (await getPrisma());
  return db.authorizationCode.findUnique({ where: { codeHash }, select: CODE });
}

/**
 * Marks the code used and records what its redemption issues, only if nobody used it before: a
 * parallel redemption waits on the row and then finds it used.
 */
export async function markCodeUsed(codeHash: string, issued: Omit<TCodeRedemption, "usedAt"> & { usedAt: Date }, tx: TTx): Promise<boolean> {
  const { count } = await tx.authorizationCode.updateMany({ where: { codeHash, usedAt: null }, data: issued });
  return count === 1;
}

export async function deleteExpiredCodes(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.authorizationCode.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}

/** Deletes the selected codes of a user not redeemed yet: a code of an ended session must not yield tokens. */
export async function deleteUnusedCodesOf(userId: string, sel: TGrantSelection, tx: TTx): Promise<void> {
  await tx.authorizationCode.deleteMany({ where: { ...grantSelectionWhere(userId, sel), usedAt: null } });
}
