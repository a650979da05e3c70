import { getPrisma, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TAttrValue } from "../attributes/attribute-values.ts";
import { confirmationFromJson, type TConfirmationJson, type TConfirmationRow } from "../contacts/confirmation-row.ts";
import type { TAccount, TAccountVersion } from "./account.ts";

const ACCOUNT = { id: true, attrs: true, locked: true, instanceId: true, roles: true, ownedAttrs: true, createdAt: true, updatedAt: true } as const;

type TAccountRow = Omit<TAccount, "attrs"> & { attrs: Prisma.JsonValue };
const toAccount = (row: TAccountRow): TAccount => ({ ...row, attrs: (row.attrs ?? {}) as Record<string, TAttrValue> });

export type TIndexRow = { attr: string; value: string; isUnique: boolean };

export async function findUserByLogin(login: string) {
  const prisma = await getPrisma();
  return prisma.user.findUnique({
    where: { login },
    select: { id: true, login: true, passwordHash: true, roles: true, locked: true },
  });
}

export async function findUserById(id: string, tx?: TTx) {
  const prisma = tx ?? (await getPrisma());
  return prisma.user.findUnique({ where: { id }, select: { id: true, login: true, roles: true, locked: true } });
}

export async function findAccount(id: string, tx?: TTx): Promise<TAccount | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.user.findUnique({ where: { id }, select: ACCOUNT });
  return row ? toAccount(row) : null;
}

type TAccountAwaitingRow = {
  id: string;
  attrs: Record<string, TAttrValue> | null;
  locked: boolean;
  instance_id: string;
  roles: string[];
  owned_attrs: string[];
  created_at: Date;
  updated_at: Date;
  waiting: TConfirmationJson[];
};

/**
 * An account and, in the same round trip, its confirmations in state `awaiting`: the account read
 * path runs this on every cache miss, and a second query would double its database cost.
 */
export async function findAccountAwaiting(
  id: string,
  awaiting: { purpose: string; status: string },
): Promise<{ account: TAccount; waiting: TConfirmationRow[] } | null> {
  const prisma = await getPrisma();
  const [row] = await prisma.$queryRaw<TAccountAwaitingRow[]>`
    SELECT u.id, u.attrs, u.locked, u.instance_id, u.roles, u.owned_attrs, u.created_at, u.updated_at,
      COALESCE((SELECT json_agg(c ORDER BY c.created_at) FROM confirmations c
                WHERE c.user_id = u.id AND c.purpose = ${awaiting.purpose} AND c.status = ${awaiting.status}), '[]') AS waiting
    FROM users u WHERE u.id = ${id}`;
  if (!row) return null;
  return {
    account: {
      id: row.id,
      attrs: row.attrs ?? {},
      locked: row.locked,
      instanceId: row.instance_id,
      roles: row.roles,
      ownedAttrs: row.owned_attrs,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    waiting: row.waiting.map(confirmationFromJson),
  };
}

export async function findAccounts(ids: string[]): Promise<TAccount[]> {
  const prisma = await getPrisma();
  const rows = await prisma.user.findMany({ where: { id: { in: ids } }, select: ACCOUNT, orderBy: { id: "asc" } });
  return rows.map(toAccount);
}

export type TNewAccount = {
  id: string;
  attrs: Record<string, TAttrValue>;
  locked: boolean;
  instanceId: string;
  passwordHash?: string | null;
  roles?: string[];
  login?: string | null;
  ownedAttrs?: string[];
};

export async function insertAccount(a: TNewAccount, index: TIndexRow[], tx: TTx): Promise<void> {
  await tx.user.create({ data: { ...a, attrs: a.attrs as Prisma.InputJsonObject }, select: { id: true } });
  if (index.length) await tx.userAttrValue.createMany({ data: index.map((r) => ({ ...r, userId: a.id })) });
}

/**
 * Writes a new version only if the stored one is still `expected`: of two changes made from the same
 * version exactly one matches. Returns false when the version moved on.
 */
export async function updateAccountIfVersion(
  id: string,
  expected: string,
  next: { attrs: Record<string, TAttrValue>; locked: boolean; instanceId: string; ownedAttrs: string[] },
  index: TIndexRow[],
  tx: TTx,
): Promise<boolean> {
  const { count } = await tx.user.updateMany({
    where: { id, instanceId: expected },
    data: { attrs: next.attrs as Prisma.InputJsonObject, locked: next.locked, instanceId: next.instanceId, ownedAttrs: next.ownedAttrs },
  });
  if (count === 0) return false;
  await tx.userAttrValue.deleteMany({ where: { userId: id } });
  if (index.length) await tx.userAttrValue.createMany({ data: index.map((r) => ({ ...r, userId: id })) });
  return true;
}

export async function deleteAccountIfVersion(id: string, expected: string, tx?: TTx): Promise<boolean> {
  const db = tx ?? (await getPrisma());
  const { count } = await db.user.deleteMany({ where: { id, instanceId: expected } });
  return count > 0;
}

/** Values of unique attributes already held by other accounts. */
export async function findTakenValues(rows: { attr: string; value: string }[], exceptUserId?: string, tx?: TTx) {
  if (rows.length === 0) return [];
  const db = tx ?? (await getPrisma());
  return db.userAttrValue.findMany({
    where: { isUnique: true, OR: rows, ...(exceptUserId ? { NOT: { userId: exceptUserId } } : {}) },
    select: { attr: true, value: true },
  });
}

/** The accounts whose indexed value of `attr` is exactly `value` (as the index stores it: e-mail lower-cased, phone 7XXXXXXXXXX). */
export async function findIdsByValue(attr: string, value: string): Promise<string[]> {
  const prisma = await getPrisma();
  const rows = await prisma.userAttrValue.findMany({ where: { attr, value }, select: { userId: true }, take: 2 });
  return rows.map((r) => r.userId);
}

/**
 * Accounts whose normalised value of `attr` matches a LIKE pattern (already escaped by the caller),
 * by id, in one round trip. A bound pattern is planned with its value, so a prefix uses the
 * text_pattern_ops index and an infix or suffix the trigram index.
 */
export async function searchAccounts(attr: string, likePattern: string, limit: number): Promise<TAccountVersion[]> {
  const prisma = await getPrisma();
  const rows = await prisma.$queryRaw<{ id: string; attrs: Record<string, TAttrValue> | null; locked: boolean; instance_id: string; owned_attrs: string[] }[]>`
    SELECT u.id, u.attrs, u.locked, u.instance_id, u.owned_attrs FROM users u
    WHERE u.id IN (
      SELECT DISTINCT user_id FROM user_attr_values
      WHERE attr = ${attr} AND value LIKE ${likePattern}
      ORDER BY user_id LIMIT ${limit})
    ORDER BY u.id`;
  return rows.map((r) => ({ id: r.id, attrs: r.attrs ?? {}, locked: r.locked, instanceId: r.instance_id, ownedAttrs: r.owned_attrs }));
}

export async function findPasswordHash(id: string, tx?: TTx): Promise<string | null> {
  const db = tx ?? (await getPrisma());
  return (await db.user.findUnique({ where: { id }, select: { passwordHash: true } }))?.passwordHash ?? null;
}

export async function updateCredentials(id: string, data: { roles?: string[]; passwordHash?: string | null }, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  await db.user.update({ where: { id }, data, select: { id: true } });
}

/**
 * The active accounts holding a role, their rows locked until the transaction ends: two
 * administrators taking the role from each other at once cannot both succeed.
 */
export async function lockActiveWithRole(role: string, tx: TTx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE ${role} = ANY(roles) AND NOT locked ORDER BY id FOR UPDATE`;
  return rows.map((r) => r.id);
}

/**
 * Refuses to lock or delete the last active administrator ("admin", admin.service.ts's role): the
 * count and the change share the caller's transaction, which holds every administrator's row, so
 * two administrators locking each other at once cannot both succeed.
 */
export async function refuseLastActiveAdmin(account: { id: string; roles: string[]; locked: boolean }, tx: TTx): Promise<void> {
  if (account.locked || !account.roles.includes("admin")) return;
  const admins = await lockActiveWithRole("admin", tx);
  if (!admins.some((id) => id !== account.id)) throw new AppError("console.last_admin");
}

/** Which of these ids are accounts already. */
export async function findExistingIds(ids: string[], tx: TTx): Promise<Set<string>> {
  if (!ids.length) return new Set();
  return new Set((await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id));
}

/**
 * Inserts a batch of checked new accounts and their value index rows inside the caller's
 * transaction, each table with one statement (the rows travel as one JSON document, as in
 * seed.repository.ts): thousands of rows per round trip on PostgreSQL and PGlite alike.
 */
export async function insertAccounts(accounts: (TNewAccount & { index: TIndexRow[] })[], tx: TTx): Promise<void> {
  if (!accounts.length) return;
  const users = JSON.stringify(accounts.map((a) => ({ id: a.id, attrs: a.attrs, locked: a.locked, instance_id: a.instanceId, password_hash: a.passwordHash ?? null, owned_attrs: a.ownedAttrs ?? [] })));
  const values = JSON.stringify(accounts.flatMap((a) => a.index.map((r) => ({ user_id: a.id, attr: r.attr, value: r.value, is_unique: r.isUnique }))));
  await tx.$executeRaw`
    INSERT INTO users (id, attrs, locked, instance_id, password_hash, owned_attrs)
    SELECT id, attrs, locked, instance_id, password_hash, owned_attrs
    FROM jsonb_to_recordset(${users}::jsonb) AS r(id text, attrs jsonb, locked boolean, instance_id text, password_hash text, owned_attrs text[])`;
  await tx.$executeRaw`
    INSERT INTO user_attr_values (user_id, attr, value, is_unique)
    SELECT user_id, attr, value, is_unique
    FROM jsonb_to_recordset(${values}::jsonb) AS r(user_id text, attr text, value text, is_unique boolean)`;
}
