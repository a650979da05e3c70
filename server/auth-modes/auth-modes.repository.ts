import { getPrisma, type TTx } from "../db/index.ts";

/** An account's authentication modes as stored; an account without a row has every mode off. */
export type TAuthModes = { secondFactor: boolean; needPasswordChange: boolean; methodsLocked: string[] };

// Shared by every account without a row, and cached as their modes: frozen, as cached values are never changed in place.
export const MODES_OFF: TAuthModes = Object.freeze({ secondFactor: false, needPasswordChange: false, methodsLocked: Object.freeze([]) as unknown as string[] });
const MODES = { secondFactor: true, needPasswordChange: true, methodsLocked: true } as const;

export async function findAuthModes(userId: string, tx?: TTx): Promise<TAuthModes> {
  const db = tx ?? (await getPrisma());
  return (await db.userAuthModes.findUnique({ where: { userId }, select: MODES })) ?? MODES_OFF;
}

export async function saveAuthModes(userId: string, modes: TAuthModes, tx: TTx): Promise<void> {
  const data = { ...modes, updatedAt: new Date() };
  await tx.userAuthModes.upsert({ where: { userId }, create: { userId, ...data }, update: data, select: { userId: true } });
}

export async function secondFactorRequired(userId: string, tx?: TTx): Promise<boolean> {
  return (await findAuthModes(userId, tx)).secondFactor;
}

/** Whether the password in force was accepted only because the second factor was on. */
export async function findPasswordNeedsSecondFactor(userId: string, tx: TTx): Promise<boolean> {
  const row = await tx.userAuthModes.findUnique({ where: { userId }, select: { passwordNeedsSecondFactor: true } });
  return row?.passwordNeedsSecondFactor ?? false;
}

export async function savePasswordNeedsSecondFactor(userId: string, value: boolean, tx: TTx): Promise<void> {
  const data = { passwordNeedsSecondFactor: value, updatedAt: new Date() };
  await tx.userAuthModes.upsert({ where: { userId }, create: { userId, ...data }, update: data, select: { userId: true } });
}

/** Clears the forced password change; true when it was set. */
export async function unsetNeedPasswordChange(userId: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.userAuthModes.updateMany({ where: { userId, needPasswordChange: true }, data: { needPasswordChange: false, updatedAt: new Date() } });
  return count === 1;
}
