import { randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/client.ts";
import { getPrisma, type TTx } from "../db/index.ts";

const POLICY_ID = "default";

/** The stored policy document, or null when none was ever saved (the default applies). */
export async function findPolicyDocument(tx?: TTx): Promise<unknown> {
  const db = tx ?? (await getPrisma());
  return (await db.passwordPolicy.findUnique({ where: { id: POLICY_ID }, select: { policy: true } }))?.policy ?? null;
}

export async function savePolicyDocument(policy: Record<string, unknown>, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  const doc = policy as Prisma.InputJsonObject;
  await db.passwordPolicy.upsert({ where: { id: POLICY_ID }, create: { id: POLICY_ID, policy: doc }, update: { policy: doc }, select: { id: true } });
}

export type THistoryRow = { hash: string; setAt: Date };

/** The user's password hashes, newest first (the first is the current one when it was set here). */
export async function findPasswordHistory(userId: string, limit: number, tx?: TTx): Promise<THistoryRow[]> {
  const db = tx ?? (await getPrisma());
  return db.passwordHistory.findMany({ where: { userId }, select: { hash: true, setAt: true }, orderBy: [{ setAt: "desc" }, { id: "desc" }], take: limit });
}

/**
 * The user's row, locked for this transaction, with its password hash: two changes of one password
 * are serialised here, and the later one sees what the earlier one wrote.
 */
export async function lockPasswordHash(userId: string, tx: TTx): Promise<{ hash: string | null } | null> {
  const rows = await tx.$queryRaw<{ password_hash: string | null }[]>`SELECT password_hash FROM users WHERE id = ${userId} FOR UPDATE`;
  return rows[0] ? { hash: rows[0].password_hash } : null;
}

/** Sets the password hash, records it in the history at `at` and keeps only the newest `keep` rows. */
export async function writePassword(userId: string, hash: string, at: Date, keep: number, tx: TTx): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { passwordHash: hash }, select: { id: true } });
  await tx.passwordHistory.create({ data: { id: randomUUID(), userId, hash, setAt: at }, select: { id: true } });
  const kept = await tx.passwordHistory.findMany({ where: { userId }, select: { id: true }, orderBy: [{ setAt: "desc" }, { id: "desc" }], take: keep });
  await tx.passwordHistory.deleteMany({ where: { userId, id: { notIn: kept.map((r) => r.id) } } });
}

/** Takes the password away: the account then signs in by other means (a passkey). The history stays, so an old password cannot come back. */
export async function clearPasswordHash(userId: string, tx: TTx): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { passwordHash: null }, select: { id: true } });
}

/** Forgets the user's remembered devices (and by cascade their sessions), but `keepDevice`. */
export async function deleteDevicesOf(userId: string, keepDevice: string | undefined, tx: TTx): Promise<number> {
  const { count } = await tx.device.deleteMany({ where: { userId, ...(keepDevice ? { id: { not: keepDevice } } : {}) } });
  return count;
}
