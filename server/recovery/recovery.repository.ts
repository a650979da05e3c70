import { getPrisma, type TTx } from "../db/index.ts";

export type TRecoveryChannel = "email" | "phone";
export type TRecoveryRow = {
  flowId: string;
  userId: string | null;
  channel: TRecoveryChannel;
  address: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
};

const ROW = { flowId: true, userId: true, channel: true, address: true, codeHash: true, attempts: true, expiresAt: true } as const;

/** The flow's recovery, replacing the one it had: a new code, its tries counted from zero. */
export async function saveRecovery(row: Omit<TRecoveryRow, "attempts">, tx: TTx): Promise<void> {
  const fresh = { ...row, attempts: 0, createdAt: new Date() };
  await tx.passwordRecovery.upsert({ where: { flowId: row.flowId }, create: fresh, update: fresh, select: { flowId: true } });
}

export async function findRecovery(flowId: string): Promise<TRecoveryRow | null> {
  const prisma = await getPrisma();
  return prisma.passwordRecovery.findUnique({ where: { flowId }, select: ROW }) as Promise<TRecoveryRow | null>;
}

/**
 * Counts one try of a code, unless the recovery is spent or expired: the check and the count are one
 * UPDATE, so of any number of parallel tries no more than `max` get through.
 */
export async function countTry(flowId: string, max: number, now: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.passwordRecovery.updateMany({ where: { flowId, attempts: { lt: max }, expiresAt: { gt: now } }, data: { attempts: { increment: 1 } } });
  return count === 1;
}

/** Uses the recovery up: of two submissions of the right code, one deletes it and goes on. */
export async function useRecovery(flowId: string, codeHash: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.passwordRecovery.deleteMany({ where: { flowId, codeHash } });
  return count === 1;
}
