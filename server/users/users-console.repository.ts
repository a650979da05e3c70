import { getPrisma } from "../db/index.ts";

/**
 * One console page of account ids, keyset-paged by id, with the total for the same filter. A search
 * matches searchable attribute values: a prefix through the text_pattern_ops index, or (from three
 * characters) anywhere through the trigram index, so it stays fast at a million accounts.
 */
export async function findAccountPage(opts: { like?: string; after?: string; limit: number }): Promise<{ ids: string[]; total: number }> {
  const prisma = await getPrisma();
  const after = opts.after ?? "";
  if (!opts.like) {
    const [rows, total] = await Promise.all([
      prisma.user.findMany({ where: { id: { gt: after } }, orderBy: { id: "asc" }, take: opts.limit, select: { id: true } }),
      prisma.user.count(),
    ]);
    return { ids: rows.map((r) => r.id), total };
  }
  const [rows, counted] = await Promise.all([
    prisma.$queryRaw<{ user_id: string }[]>`
      SELECT DISTINCT user_id FROM user_attr_values
      WHERE value LIKE ${opts.like} AND user_id > ${after}
      ORDER BY user_id LIMIT ${opts.limit}`,
    prisma.$queryRaw<{ n: bigint }[]>`SELECT count(DISTINCT user_id) AS n FROM user_attr_values WHERE value LIKE ${opts.like}`,
  ]);
  return { ids: rows.map((r) => r.user_id), total: Number(counted[0]?.n ?? 0) };
}
