import { getPrisma, type TTx } from "../../db/index.ts";

export type TRefreshRow = {
  id: string;
  familyId: string;
  clientId: string;
  userId: string;
  sessionId: string | null;
  scopes: string[];
  authTime: Date;
  amr: string[];
  acr: string;
  accessJti: string;
  accessExpiresAt: Date;
  expiresAt: Date;
};

const ROW = {
  id: true, familyId: true, clientId: true, userId: true, sessionId: true, scopes: true, authTime: true, amr: true, acr: true,
  accessJti: true, accessExpiresAt: true, expiresAt: true, rotatedAt: true, revokedAt: true, createdAt: true,
} as const;

export type TStoredRefresh = TRefreshRow & { rotatedAt: Date | null; revokedAt: Date | null; createdAt: Date };

export async function insertRefreshToken(row: TRefreshRow & { tokenHash: string }, tx: TTx): Promise<void> {
  await tx.refreshToken.create({ data: row, select: { id: true } });
}

export async function findRefreshToken(tokenHash: string): Promise<TStoredRefresh | null> {
  const prisma = await getPrisma();
  return prisma.refreshToken.findUnique({ where: { tokenHash }, select: ROW });
}

/** Marks a refresh token used, only if it was current: of two parallel uses one wins. */
export async function markRotated(id: string, at: Date, tx: TTx): Promise<boolean> {
  const { count } = await tx.refreshToken.updateMany({ where: { id, rotatedAt: null, revokedAt: null }, data: { rotatedAt: at } });
  return count === 1;
}

/** Revokes every token of a family; returns the access tokens issued with them, to revoke those too. */
export async function revokeFamilyRows(familyId: string, at: Date): Promise<{ accessJti: string; accessExpiresAt: Date }[]> {
  const prisma = await getPrisma();
  return prisma.$transaction(async (tx) => {
    const rows = await tx.refreshToken.findMany({ where: { familyId }, select: { accessJti: true, accessExpiresAt: true } });
    await tx.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } });
    return rows;
  });
}

export async function deleteExpiredRefreshTokens(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.refreshToken.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}

/** Which of a user's grants (codes, refresh tokens) to end: those issued before a time, narrowed by session. */
export type TGrantSelection = { before: Date; onlySessions?: string[]; exceptSessions?: string[] };

/** The Prisma filter of a selection; codes and refresh tokens share the columns it names. */
export function grantSelectionWhere(userId: string, sel: TGrantSelection) {
  const bySession = sel.onlySessions
    ? { sessionId: { in: sel.onlySessions } }
    : sel.exceptSessions?.length
      ? { OR: [{ sessionId: null }, { sessionId: { notIn: sel.exceptSessions } }] }
      : {};
  return { userId, createdAt: { lt: sel.before }, ...bySession };
}

/** Revokes the selected live refresh tokens of a user (the current member of each family). */
export async function revokeUserRefreshRows(userId: string, sel: TGrantSelection, tx: TTx): Promise<number> {
  const where = { ...grantSelectionWhere(userId, sel), revokedAt: null };
  return (await tx.refreshToken.updateMany({ where, data: { revokedAt: sel.before } })).count;
}

/** The families of refresh tokens a user holds for one client. */
export async function findFamiliesOf(userId: string, clientId: string): Promise<string[]> {
  const prisma = await getPrisma();
  const rows = await prisma.refreshToken.findMany({ where: { userId, clientId, revokedAt: null }, select: { familyId: true }, distinct: ["familyId"] });
  return rows.map((r) => r.familyId);
}
