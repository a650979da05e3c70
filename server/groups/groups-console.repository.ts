import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TGroupAttrValue, TGroupProfile } from "./groups.schemas.ts";

// Prisma for the console's pages of groups: profile usage, a profile's groups by id prefix, a
// group's members. Kept apart from groups.repository.ts, which the REST API and the import share.

/** How many groups each profile has (a profile without groups is absent). */
export async function countGroupsByProfile(names?: string[], tx?: TTx): Promise<Map<string, number>> {
  const db = tx ?? (await getPrisma());
  const rows = await db.group.groupBy({ by: ["profile"], where: names ? { profile: { in: names } } : {}, _count: { _all: true } });
  return new Map(rows.map((r) => [r.profile, r._count._all]));
}

/**
 * The profile's row locked until the transaction ends: a group being created takes a key-share lock
 * on it (its foreign key), so a deletion counting the groups cannot miss one committing meanwhile.
 */
export async function lockProfileRow(name: string, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM group_profiles WHERE name = ${name} FOR UPDATE`;
  return rows.length > 0;
}

export async function deleteProfileRow(name: string, tx: TTx): Promise<void> {
  await tx.groupProfile.deleteMany({ where: { name } });
}

export type TGroupListRow = { id: string; instanceId: string; attrs: Record<string, TGroupAttrValue>; members: number };

/** A keyset page of the profile's groups whose id starts with `prefix`, in id order, with member counts. */
export async function findProfileGroupsPage(profile: string, prefix: string, after: string | undefined, limit: number): Promise<TGroupListRow[]> {
  const prisma = await getPrisma();
  const id: Prisma.StringFilter<"Group"> = { ...(prefix ? { startsWith: prefix } : {}), ...(after !== undefined ? { gt: after } : {}) };
  const rows = await prisma.group.findMany({
    where: { profile, ...(Object.keys(id).length ? { id } : {}) },
    select: { id: true, instanceId: true, attrs: true, _count: { select: { members: true } } },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((r) => ({ id: r.id, instanceId: r.instanceId, attrs: r.attrs as Record<string, TGroupAttrValue>, members: r._count.members }));
}

/** A keyset page of the group's member ids after `after`, in id order, and how many members it has. */
export async function findMembersPage(groupId: string, after: string | undefined, limit: number): Promise<{ ids: string[]; total: number }> {
  const prisma = await getPrisma();
  const [rows, total] = await Promise.all([
    prisma.groupMember.findMany({ where: { groupId, ...(after !== undefined ? { userId: { gt: after } } : {}) }, select: { userId: true }, orderBy: { userId: "asc" }, take: limit }),
    prisma.groupMember.count({ where: { groupId } }),
  ]);
  return { ids: rows.map((r) => r.userId), total };
}

/** Which of `userIds` are members of the group. */
export async function findMembersAmong(groupId: string, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const prisma = await getPrisma();
  const rows = await prisma.groupMember.findMany({ where: { groupId, userId: { in: userIds } }, select: { userId: true } });
  return new Set(rows.map((r) => r.userId));
}

/** Groups of any profile whose id starts with `prefix`, in id order: the rights browser's group picker. */
export async function findGroupsByIdPrefix(prefix: string, limit: number): Promise<{ id: string; profile: string }[]> {
  const prisma = await getPrisma();
  return prisma.group.findMany({ where: prefix ? { id: { startsWith: prefix } } : {}, select: { id: true, profile: true }, orderBy: { id: "asc" }, take: limit });
}

/** Inserts the profile unless its name is taken (then false): of parallel creations of one name, one wins. */
export async function insertProfile(p: TGroupProfile, tx: TTx): Promise<boolean> {
  const data = { name: p.name, description: p.description as Prisma.InputJsonObject, attributes: p.attributes as Prisma.InputJsonArray };
  return (await tx.groupProfile.createMany({ data: [data], skipDuplicates: true })).count === 1;
}
