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

/** What an administrator's link does: set a new password, or enrol a passkey. */
export type TInvitePurpose = "password" | "passkey";
export type TInviteRow = { tokenHash: string; userId: string; channel: TRecoveryChannel; addressHash: string; passwordMark: string; byAdmin: boolean; purpose: TInvitePurpose; expiresAt: Date; usedAt: Date | null };

/** The new link of an account, in place of any it had: only the newest link works. */
export async function saveInvite(row: Omit<TInviteRow, "usedAt">, tx: TTx): Promise<void> {
  await tx.recoveryInvite.deleteMany({ where: { userId: row.userId } });
  await tx.recoveryInvite.create({ data: row, select: { tokenHash: true } });
}

export async function findInvite(tokenHash: string): Promise<TInviteRow | null> {
  const prisma = await getPrisma();
  const select = { tokenHash: true, userId: true, channel: true, addressHash: true, passwordMark: true, byAdmin: true, purpose: true, expiresAt: true, usedAt: true } as const;
  return prisma.recoveryInvite.findUnique({ where: { tokenHash }, select }) as Promise<TInviteRow | null>;
}

/** Takes the link for one use: of parallel submissions exactly one gets it. */
export async function claimInvite(tokenHash: string, now: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.recoveryInvite.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  return count === 1;
}

/** Gives a claimed link back, when the password typed with it was refused by the policy (or the passkey by its checks). */
export async function releaseInvite(tokenHash: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.recoveryInvite.updateMany({ where: { tokenHash }, data: { usedAt: null } });
}
