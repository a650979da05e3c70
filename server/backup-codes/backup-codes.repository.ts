import { getPrisma, type TTx } from "../db/index.ts";

export type TBackupCodeCount = { unused: number; total: number; createdAt: Date | null };

/** The account's set becomes `hashes`: every code of the set before stops working. */
export async function replaceCodes(userId: string, hashes: string[], tx: TTx): Promise<void> {
  await tx.backupCode.deleteMany({ where: { userId } });
  await tx.backupCode.createMany({ data: hashes.map((codeHash) => ({ userId, codeHash })) });
}

export async function deleteCodes(userId: string, tx: TTx): Promise<number> {
  return (await tx.backupCode.deleteMany({ where: { userId } })).count;
}

/**
 * Uses a code up: the check and the use are one UPDATE, so of any number of parallel sign-ins with
 * the same code exactly one gets through.
 */
export async function useCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.backupCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: now } });
  return count === 1;
}

export async function countCodes(userId: string): Promise<TBackupCodeCount> {
  const prisma = await getPrisma();
  const rows = await prisma.backupCode.findMany({ where: { userId }, select: { usedAt: true, createdAt: true } });
  return { unused: rows.filter((r) => r.usedAt === null).length, total: rows.length, createdAt: rows[0]?.createdAt ?? null };
}
