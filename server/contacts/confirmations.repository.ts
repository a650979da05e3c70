import { getPrisma, type TTx } from "../db/index.ts";
import type { TConfirmationRow } from "./confirmation-row.ts";

const ROW = {
  state: true,
  purpose: true,
  userId: true,
  registrationId: true,
  attr: true,
  kind: true,
  value: true,
  oldValue: true,
  codeHash: true,
  attemptsLeft: true,
  status: true,
  expiresAt: true,
  resendAt: true,
  createdAt: true,
} as const;

export async function insertConfirmation(row: Omit<TConfirmationRow, "status">, tx: TTx): Promise<void> {
  await tx.confirmation.create({ data: row, select: { state: true } });
}

/** Ends earlier confirmations of the same contact: only the newest code works. */
export async function deleteConfirmationsOf(owner: { userId: string } | { registrationId: string }, attr: string, tx: TTx): Promise<void> {
  await tx.confirmation.deleteMany({ where: { ...owner, attr } });
}

/**
 * Reads a confirmation and locks it until the transaction ends, so parallel submissions of codes
 * for one confirmation are judged one after another: attempts can neither be over-spent nor a
 * right code be used twice.
 */
export async function lockConfirmation(state: string, tx: TTx): Promise<TConfirmationRow | null> {
  const locked = await tx.$queryRaw<{ state: string }[]>`SELECT state FROM confirmations WHERE state = ${state} FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.confirmation.findUnique({ where: { state }, select: ROW });
}

export async function updateConfirmation(
  state: string,
  data: Partial<Pick<TConfirmationRow, "attemptsLeft" | "status" | "codeHash" | "expiresAt" | "resendAt">>,
  tx: TTx,
): Promise<void> {
  await tx.confirmation.update({ where: { state }, data, select: { state: true } });
}

export async function deleteConfirmation(state: string, tx: TTx): Promise<void> {
  await tx.confirmation.delete({ where: { state }, select: { state: true } });
}

export async function findConfirmationsOf(owner: { userId: string } | { registrationId: string }, tx?: TTx): Promise<TConfirmationRow[]> {
  const db = tx ?? (await getPrisma());
  return db.confirmation.findMany({ where: owner, select: ROW, orderBy: { createdAt: "asc" } });
}

/** Contact-change confirmations whose code expired before `before`; registrations' go with them. */
export async function deleteExpiredConfirmations(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.confirmation.deleteMany({ where: { registrationId: null, expiresAt: { lt: before } } })).count;
}
