import type { PrismaClient } from "../../server/db/database.ts";
import { sql } from "../../server/db/sql.ts";
import type { TCompiledRql } from "../../server/rql/rql-compile.ts";

export type TScratchRow = { id: string; attrs: Record<string, unknown>; size: number; flag: boolean; day: string };

/** Test-only: a table shaped like groups and users (an id and jsonb attributes, plus typed columns) to run compiled RQL on. */
export async function createScratchTable(prisma: PrismaClient, rows: TScratchRow[]): Promise<void> {
  await prisma.$executeRaw`CREATE TABLE rql_rows (id text PRIMARY KEY, attrs jsonb NOT NULL DEFAULT '{}', size integer, flag boolean, day date)`;
  for (const r of rows) {
    await prisma.$executeRaw`INSERT INTO rql_rows (id, attrs, size, flag, day)
      VALUES (${r.id}, CAST(${JSON.stringify(r.attrs)} AS jsonb), ${r.size}, ${r.flag}, CAST(${r.day} AS date))`;
  }
}

/** Runs a compiled query the way a repository will: its fragments spliced into one $queryRaw, ids as the stable tiebreaker. */
export async function searchScratch(prisma: PrismaClient, q: TCompiledRql): Promise<string[]> {
  const order = q.orderBy ? sql`ORDER BY ${q.orderBy}, r.id` : sql`ORDER BY r.id`;
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT r.id FROM rql_rows r WHERE ${q.where} ${order} LIMIT ${q.limit ?? 1000} OFFSET ${q.offset ?? 0}`;
  return rows.map((r) => r.id);
}

export async function countScratch(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM rql_rows`;
  return row!.n;
}
