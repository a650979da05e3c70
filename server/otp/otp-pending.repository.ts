import { getPrisma } from "../db/index.ts";

/** At most this many secrets wait per account (several tabs, a retry); older ones are dropped. */
const MAX_PENDING = 5;

export type TPendingRow = { id: string; seed: string; expiresAt: Date };

/** Remembers a secret handed out, drops expired ones and all but the newest few. */
export async function insertPending(row: { id: string; userId: string; seed: string; expiresAt: Date }, now: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$transaction(async (tx) => {
    await tx.otpPendingSecret.deleteMany({ where: { userId: row.userId, expiresAt: { lte: now } } });
    await tx.otpPendingSecret.create({ data: row, select: { id: true } });
    const keep = await tx.otpPendingSecret.findMany({ where: { userId: row.userId }, select: { id: true }, orderBy: { createdAt: "desc" }, take: MAX_PENDING });
    await tx.otpPendingSecret.deleteMany({ where: { userId: row.userId, id: { notIn: keep.map((k) => k.id) } } });
  });
}

export async function findPendingOf(userId: string, now: Date): Promise<TPendingRow[]> {
  const prisma = await getPrisma();
  return prisma.otpPendingSecret.findMany({ where: { userId, expiresAt: { gt: now } }, select: { id: true, seed: true, expiresAt: true } });
}

/** Takes a pending secret for binding: of parallel requests exactly one gets it. */
export async function takePending(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.otpPendingSecret.deleteMany({ where: { id } })).count === 1;
}

/** Secrets of the QR flow nobody bound in time (maintenance). */
export async function deleteExpiredPending(now: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.otpPendingSecret.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}
