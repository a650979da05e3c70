import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TAttrValue } from "../attributes/attribute-values.ts";

export type TRegistrationRow = {
  context: string;
  attrs: Record<string, TAttrValue>;
  sub: string;
  passwordHash: string | null;
  clientId: string;
  locale: string;
  userId: string | null;
  /** bindDynClient instances to bind when the account is created. */
  dynClientIds: string[];
  expiresAt: Date;
};

const ROW = { context: true, attrs: true, sub: true, passwordHash: true, clientId: true, locale: true, userId: true, dynClientIds: true, expiresAt: true } as const;

export async function insertRegistration(row: TRegistrationRow, tx: TTx): Promise<void> {
  await tx.registration.create({ data: { ...row, attrs: row.attrs as Prisma.InputJsonObject }, select: { context: true } });
}

/** Locks the registration for the transaction: its contacts are confirmed one submission at a time. */
export async function lockRegistration(context: string, tx: TTx): Promise<TRegistrationRow | null> {
  const locked = await tx.$queryRaw<{ context: string }[]>`SELECT context FROM registrations WHERE context = ${context} FOR UPDATE`;
  if (locked.length === 0) return null;
  const row = await tx.registration.findUnique({ where: { context }, select: ROW });
  return row ? { ...row, attrs: row.attrs as Record<string, TAttrValue> } : null;
}

export async function updateRegistration(context: string, data: { attrs?: Record<string, TAttrValue>; expiresAt?: Date }, tx: TTx): Promise<void> {
  await tx.registration.update({
    where: { context },
    data: { ...data, attrs: data.attrs as Prisma.InputJsonObject | undefined },
    select: { context: true },
  });
}

export async function deleteRegistration(context: string, tx: TTx): Promise<void> {
  await tx.registration.delete({ where: { context }, select: { context: true } });
}

/** Registrations nobody finished; their confirmations go with them (cascade). */
export async function deleteExpiredRegistrations(now: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.registration.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
