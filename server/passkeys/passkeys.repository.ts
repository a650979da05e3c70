import { getPrisma, type TTx } from "../db/index.ts";

export type TPasskeyRow = {
  id: string;
  userId: string;
  name: string;
  publicKey: Uint8Array;
  counter: bigint;
  transports: string[];
  aaguid: string;
  deviceType: string;
  backedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
};

/** Inserts the passkey unless its credential id is registered already (then false, whoever holds it). */
export async function insertPasskey(row: Omit<TPasskeyRow, "createdAt" | "lastUsedAt">): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.passkey.createMany({ data: [{ ...row, publicKey: Buffer.from(row.publicKey) }], skipDuplicates: true });
  return count === 1;
}

export async function findPasskey(id: string): Promise<TPasskeyRow | null> {
  const prisma = await getPrisma();
  return prisma.passkey.findUnique({ where: { id } });
}

export async function findPasskeysOf(userId: string, tx?: TTx): Promise<TPasskeyRow[]> {
  const db = tx ?? (await getPrisma());
  return db.passkey.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/**
 * Records a use: the counter moves only from the value the check read, so two uses racing on one
 * credential cannot both move it (the challenge already lets only one of them through).
 */
export async function recordPasskeyUse(id: string, readCounter: bigint, newCounter: bigint, backedUp: boolean, at: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.passkey.updateMany({ where: { id, counter: readCounter }, data: { counter: newCounter, backedUp, lastUsedAt: at } });
  return count === 1;
}

export async function countPasskeysOf(userId: string, tx?: TTx): Promise<number> {
  const db = tx ?? (await getPrisma());
  return db.passkey.count({ where: { userId } });
}

export async function renamePasskey(userId: string, id: string, name: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.passkey.updateMany({ where: { userId, id }, data: { name } })).count === 1;
}

export async function deletePasskey(userId: string, id: string, tx?: TTx): Promise<boolean> {
  const db = tx ?? (await getPrisma());
  return (await db.passkey.deleteMany({ where: { userId, id } })).count === 1;
}

/**
 * Hands out a challenge, replacing any earlier one of the same purpose and binding: one sign-in or
 * one account has one live challenge at a time, so asking again and again grows nothing.
 */
export async function insertChallenge(row: { challenge: string; purpose: string; binding: string; expiresAt: Date }): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$transaction([
    prisma.webAuthnChallenge.deleteMany({ where: { purpose: row.purpose, binding: row.binding } }),
    prisma.webAuthnChallenge.create({ data: row, select: { challenge: true } }),
  ]);
}

/**
 * Spends a challenge: true for exactly one caller, and only while it is unexpired and was handed out
 * for this purpose and binding. A DELETE, so any number of parallel answers get one success.
 */
export async function spendChallenge(challenge: string, purpose: string, binding: string, now: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.webAuthnChallenge.deleteMany({ where: { challenge, purpose, binding, expiresAt: { gt: now } } });
  return count === 1;
}

export async function deleteExpiredChallenges(now: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.webAuthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}
