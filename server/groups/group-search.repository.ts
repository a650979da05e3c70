import type { TAttrValue } from "../attributes/attribute-values.ts";
import { getPrisma } from "../db/index.ts";
import { sql, type TSql } from "../db/sql.ts";
import type { TCompiledRql } from "../rql/rql-compile.ts";
import type { TGroupRow } from "./groups.repository.ts";

// Searches compiled from RQL (server/rql): the compiled fragments name the aliases g (groups) and u (users).

export type TPage = { limit: number; offset: number };
export type TMemberRow = { id: string; attrs: Record<string, TAttrValue>; locked: boolean };

/** Ordered by the query's sort, then by id: pages of equal sort keys stay stable. */
const order = (q: TCompiledRql, id: TSql) => (q.orderBy ? sql`ORDER BY ${q.orderBy}, ${id}` : sql`ORDER BY ${id}`);

/**
 * Groups matching `q` (of `profile`, and with `memberId` as a member, when given): at most
 * page.limit rows, so a caller that asks one more than it shows learns whether more follow.
 */
export async function searchGroupRows(q: TCompiledRql, filter: { profile?: string; memberId?: string }, page: TPage): Promise<TGroupRow[]> {
  const prisma = await getPrisma();
  const profile = filter.profile === undefined ? sql`TRUE` : sql`g.profile = ${filter.profile}`;
  const member = filter.memberId === undefined ? sql`TRUE` : sql`EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = ${filter.memberId})`;
  return prisma.$queryRaw<TGroupRow[]>`
    SELECT g.id, g.profile, g.instance_id AS "instanceId", g.attrs FROM groups g
    WHERE ${profile} AND ${member} AND ${q.where} ${order(q, sql`g.id`)} LIMIT ${page.limit} OFFSET ${page.offset}`;
}

/** The members of these groups, by group, each list in id order. */
export async function findMembersOf(groupIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map(groupIds.map((id) => [id, [] as string[]]));
  if (!groupIds.length) return out;
  const prisma = await getPrisma();
  const rows = await prisma.groupMember.findMany({ where: { groupId: { in: groupIds } }, select: { groupId: true, userId: true }, orderBy: [{ groupId: "asc" }, { userId: "asc" }] });
  for (const r of rows) out.get(r.groupId)!.push(r.userId);
  return out;
}

/** Members of the group whose account matches `q`: at most page.limit rows. */
export async function searchMemberRows(groupId: string, q: TCompiledRql, page: TPage): Promise<TMemberRow[]> {
  const prisma = await getPrisma();
  return prisma.$queryRaw<TMemberRow[]>`
    SELECT u.id, u.attrs, u.locked FROM group_members m JOIN users u ON u.id = m.user_id
    WHERE m.group_id = ${groupId} AND ${q.where} ${order(q, sql`u.id`)} LIMIT ${page.limit} OFFSET ${page.offset}`;
}
