import { getPrisma, type TTx } from "../db/index.ts";

// The only code that touches Prisma for bindings of external accounts to users.

export type TBindingRow = { fpType: string; fpName: string; sid: string; userName: string | null };
const BINDING = { fpType: true, fpName: true, sid: true, userName: true } as const;

export async function findBindingsOf(userId: string): Promise<TBindingRow[]> {
  const prisma = await getPrisma();
  return prisma.federatedAccount.findMany({
    where: { userId },
    select: BINDING,
    orderBy: [{ createdAt: "asc" }, { fpType: "asc" }, { fpName: "asc" }, { sid: "asc" }],
  });
}

/** Holds the account (shared) until the transaction ends, so it cannot be deleted under a bind; false when there is none. */
export async function lockUserShared(userId: string, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE id = ${userId} FOR KEY SHARE`;
  return rows.length > 0;
}

export type TBindOutcome = { outcome: "created" | "updated" } | { outcome: "taken" };

/**
 * Binds (provider, sid) to the user in one statement, so parallel binds of one sid end as some serial
 * order would: the first inserts, a later one for the same user only updates the name (an absent name
 * keeps the stored one), and one for another user matches no row to update and is told "taken".
 */
export async function bindAccount(userId: string, b: TBindingRow, tx: TTx): Promise<TBindOutcome> {
  const rows = await tx.$queryRaw<{ inserted: boolean }[]>`
    INSERT INTO federated_accounts (fp_type, fp_name, sid, user_id, user_name)
    VALUES (${b.fpType}, ${b.fpName}, ${b.sid}, ${userId}, ${b.userName})
    ON CONFLICT (fp_type, fp_name, sid) DO UPDATE SET user_name = COALESCE(EXCLUDED.user_name, federated_accounts.user_name)
      WHERE federated_accounts.user_id = EXCLUDED.user_id
    RETURNING (xmax = 0) AS inserted`;
  if (!rows[0]) return { outcome: "taken" };
  return { outcome: rows[0].inserted ? "created" : "updated" };
}

/** False when the user had no such binding. */
export async function unbindAccount(userId: string, key: Omit<TBindingRow, "userName">, tx?: TTx): Promise<boolean> {
  const db = tx ?? (await getPrisma());
  return (await db.federatedAccount.deleteMany({ where: { userId, fpType: key.fpType, fpName: key.fpName, sid: key.sid } })).count > 0;
}

/** The user an external account is bound to, or null: who signs in with it. */
export async function findBoundUser(key: Omit<TBindingRow, "userName">): Promise<string | null> {
  const prisma = await getPrisma();
  const row = await prisma.federatedAccount.findUnique({ where: { fpType_fpName_sid: key }, select: { userId: true } });
  return row?.userId ?? null;
}
