import { getPrisma } from "../db/index.ts";
import type { TSealedColumn } from "./sealed-columns.ts";

export type TSealedCell = { at: string; value: string };

/*
 * Raw SQL because the walk is the same for every table: rows are visited in physical order (ctid),
 * which needs no key of the table's own, and table and column names come only from SEALED_COLUMNS.
 */

/** The next cells after `after` (a ctid) that are not sealed under the current key. */
export async function findCellsNotUnder(c: TSealedColumn, prefix: string, after: string, limit: number): Promise<TSealedCell[]> {
  const prisma = await getPrisma();
  return prisma.$queryRawUnsafe<TSealedCell[]>(
    `SELECT ctid::text AS at, "${c.column}" AS value FROM "${c.table}"
      WHERE "${c.column}" IS NOT NULL AND left("${c.column}", length($1)) <> $1 AND ctid > $2::tid
      ORDER BY ctid LIMIT $3`,
    prefix,
    after,
    limit,
  );
}

/**
 * Writes the re-sealed value only where the cell still holds what was read: a row the service changed
 * meanwhile keeps the service's value (sealed under the current key already). False when it did.
 */
export async function replaceCell(c: TSealedColumn, cell: TSealedCell, value: string): Promise<boolean> {
  const prisma = await getPrisma();
  const n = await prisma.$executeRawUnsafe(`UPDATE "${c.table}" SET "${c.column}" = $1 WHERE ctid = $2::tid AND "${c.column}" = $3`, value, cell.at, cell.value);
  return n === 1;
}

/** How many cells of the column are not sealed under the current key. */
export async function countCellsNotUnder(c: TSealedColumn, prefix: string): Promise<number> {
  const prisma = await getPrisma();
  const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT count(*) AS n FROM "${c.table}" WHERE "${c.column}" IS NOT NULL AND left("${c.column}", length($1)) <> $1`,
    prefix,
  );
  return Number(row?.n ?? 0);
}
