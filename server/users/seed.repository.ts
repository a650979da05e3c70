import { checkpointIfDue, getPrisma } from "../db/index.ts";
import type { TAttrValue } from "../attributes/attribute-values.ts";
import type { TIndexRow } from "./users.repository.ts";

export type TSeedAccount = { id: string; attrs: Record<string, TAttrValue>; locked: boolean; instanceId: string };
export type TSeedIndexRow = TIndexRow & { userId: string };

/**
 * Inserts a batch of new accounts and their value index rows in one transaction, each table with a
 * single statement: the batch travels as one JSON document that PostgreSQL unpacks with
 * jsonb_to_recordset. A row per Prisma call would cost a round trip each; this is thousands of rows
 * per round trip, on PostgreSQL and PGlite alike.
 */
export async function insertAccountBatch(accounts: TSeedAccount[], index: TSeedIndexRow[]): Promise<void> {
  const prisma = await getPrisma();
  const users = JSON.stringify(accounts.map((a) => ({ id: a.id, attrs: a.attrs, locked: a.locked, instance_id: a.instanceId })));
  const values = JSON.stringify(index.map((r) => ({ user_id: r.userId, attr: r.attr, value: r.value, is_unique: r.isUnique })));
  await prisma.$transaction([
    prisma.$executeRaw`
      INSERT INTO users (id, attrs, locked, instance_id)
      SELECT id, attrs, locked, instance_id
      FROM jsonb_to_recordset(${users}::jsonb) AS r(id text, attrs jsonb, locked boolean, instance_id text)`,
    prisma.$executeRaw`
      INSERT INTO user_attr_values (user_id, attr, value, is_unique)
      SELECT user_id, attr, value, is_unique
      FROM jsonb_to_recordset(${values}::jsonb) AS r(user_id text, attr text, value text, is_unique boolean)`,
  ]);
  await checkpointIfDue();
}

/** How many index values of `attr` lie between lo and hi (inclusive, text order). */
export async function countIndexValuesBetween(attr: string, lo: string, hi: string): Promise<number> {
  const prisma = await getPrisma();
  return prisma.userAttrValue.count({ where: { attr, value: { gte: lo, lte: hi } } });
}

/** After a bulk load: planner statistics for the tables' new size, and a visibility map so index-only scans stay index-only. */
export async function vacuumAccounts(): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$executeRaw`VACUUM (ANALYZE) users, user_attr_values`;
}
