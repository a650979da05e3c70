import type { TUniqueValue } from "./group-attrs.ts";
import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TGroup, TGroupAttrDef, TGroupAttrValue, TGroupProfile } from "./groups.schemas.ts";

// The only code that touches Prisma for groups: profiles, groups and memberships.

const PROFILE = { name: true, description: true, attributes: true } as const;
const GROUP = { id: true, profile: true, instanceId: true, attrs: true } as const;
export type TGroupRow = Omit<TGroup, "members">;

type TProfileRecord = { name: string; description: Prisma.JsonValue; attributes: Prisma.JsonValue };
function toProfile(r: TProfileRecord): TGroupProfile {
  const d = (r.description ?? {}) as { ru?: string; en?: string };
  return { name: r.name, description: { ru: d.ru ?? "", en: d.en ?? "" }, attributes: (r.attributes ?? []) as TGroupAttrDef[] };
}

const toRow = (r: { id: string; profile: string; instanceId: string; attrs: Prisma.JsonValue }): TGroupRow => ({ ...r, attrs: r.attrs as Record<string, TGroupAttrValue> });

export async function findProfiles(names?: string[], tx?: TTx): Promise<TGroupProfile[]> {
  const db = tx ?? (await getPrisma());
  const rows = await db.groupProfile.findMany({ where: names ? { name: { in: names } } : {}, select: PROFILE, orderBy: { name: "asc" } });
  return rows.map(toProfile);
}

export async function upsertProfile(p: TGroupProfile, tx: TTx): Promise<void> {
  const data = { description: p.description as Prisma.InputJsonObject, attributes: p.attributes as Prisma.InputJsonArray };
  await tx.groupProfile.upsert({ where: { name: p.name }, create: { name: p.name, ...data }, update: data, select: { name: true } });
}

export async function findGroupRow(id: string, tx?: TTx): Promise<TGroupRow | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.group.findUnique({ where: { id }, select: GROUP });
  return row && toRow(row);
}

const WITH_MEMBERS = { ...GROUP, members: { select: { userId: true }, orderBy: { userId: "asc" } } } as const;
const toGroup = (r: Parameters<typeof toRow>[0] & { members: { userId: string }[] }): TGroup => ({ ...toRow(r), members: r.members.map((m) => m.userId) });

/** The group with its members (id order), or null. */
export async function findGroup(id: string): Promise<TGroup | null> {
  const prisma = await getPrisma();
  const row = await prisma.group.findUnique({ where: { id }, select: WITH_MEMBERS });
  return row && toGroup(row);
}

/**
 * The group's row with a lock until the transaction ends: key share for a membership change (a
 * deletion waits for it), update for a change of the group itself. Null when there is none.
 */
export async function lockGroup(id: string, mode: "share" | "update", tx: TTx): Promise<{ id: string; profile: string; instanceId: string } | null> {
  const rows =
    mode === "share"
      ? await tx.$queryRaw<{ id: string; profile: string; instance_id: string }[]>`SELECT id, profile, instance_id FROM groups WHERE id = ${id} FOR KEY SHARE`
      : await tx.$queryRaw<{ id: string; profile: string; instance_id: string }[]>`SELECT id, profile, instance_id FROM groups WHERE id = ${id} FOR UPDATE`;
  const r = rows[0];
  return r ? { id: r.id, profile: r.profile, instanceId: r.instance_id } : null;
}

/** Inserts the group unless its id is taken (then false). Of parallel inserts of one id, one wins. */
export async function insertGroup(g: TGroupRow, tx: TTx): Promise<boolean> {
  const { count } = await tx.group.createMany({ data: [{ ...g, attrs: g.attrs as Prisma.InputJsonObject }], skipDuplicates: true });
  return count === 1;
}

export async function updateGroup(id: string, attrs: Record<string, TGroupAttrValue>, instanceId: string, tx: TTx): Promise<void> {
  await tx.group.update({ where: { id }, data: { attrs: attrs as Prisma.InputJsonObject, instanceId }, select: { id: true } });
}

/** Deletes the group (its memberships and the rights on it go too); its former members' ids. */
export async function deleteGroupRow(id: string, tx: TTx): Promise<string[]> {
  const members = await tx.groupMember.findMany({ where: { groupId: id }, select: { userId: true } });
  await tx.group.deleteMany({ where: { id } });
  return members.map((m) => m.userId);
}

// Namespace (first key) of the transaction-level advisory locks on a profile's unique values.
const UNIQUE_LOCKS = 0x67727073;

/** Serializes the writers of one profile's unique values, so a check and its write cannot interleave with another's. */
export async function lockProfileValues(profile: string, tx: TTx): Promise<void> {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${UNIQUE_LOCKS}::int, hashtext(${profile}))`;
}

/** Another group of the profile holding this value of a unique attribute (text case-insensitively, numbers as numerics). */
export async function findValueHolder(profile: string, value: TUniqueValue, exceptId: string, tx: TTx): Promise<string | undefined> {
  const rows =
    "number" in value
      ? await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM groups WHERE profile = ${profile} AND id <> ${exceptId} AND attrs -> ${value.name} = to_jsonb(${value.number}::numeric) LIMIT 1`
      : await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM groups WHERE profile = ${profile} AND id <> ${exceptId} AND lower(attrs ->> ${value.name}) = lower(${value.text}) LIMIT 1`;
  return rows[0]?.id;
}

/** Which of these ids are accounts. */
export async function findExistingUsers(ids: string[], tx: TTx): Promise<Set<string>> {
  const rows = await tx.user.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/**
 * Adds the members by hand; those already in stay (a parallel add of the same one too). The ones
 * added. A member a directory had made becomes hand-made: whoever adds them by hand means to keep
 * them whatever the directory says later.
 */
export async function insertMembers(groupId: string, userIds: string[], tx: TTx): Promise<string[]> {
  const rows = await tx.groupMember.createManyAndReturn({ data: userIds.map((userId) => ({ groupId, userId })), skipDuplicates: true, select: { userId: true } });
  const added = new Set(rows.map((r) => r.userId));
  const already = userIds.filter((u) => !added.has(u));
  if (already.length) await tx.groupMember.updateMany({ where: { groupId, userId: { in: already }, directoryId: { not: null } }, data: { directoryId: null } });
  return [...added];
}

/** Removes the members; how many were members. */
export async function deleteMembers(groupId: string, userIds: string[], tx: TTx): Promise<number> {
  return (await tx.groupMember.deleteMany({ where: { groupId, userId: { in: userIds } } })).count;
}

export async function findMemberIds(groupId: string, tx: TTx): Promise<string[]> {
  const rows = await tx.groupMember.findMany({ where: { groupId }, select: { userId: true }, orderBy: { userId: "asc" } });
  return rows.map((r) => r.userId);
}

/** The ids of the groups the account is a member of, in id order. */
export async function findGroupIdsOf(userId: string): Promise<string[]> {
  const prisma = await getPrisma();
  const rows = await prisma.groupMember.findMany({ where: { userId }, select: { groupId: true }, orderBy: { groupId: "asc" } });
  return rows.map((r) => r.groupId);
}

/** A keyset page of groups (of one profile when given) after `after`, in id order, with their members when asked (else `members` is empty). */
export async function findGroupsPage(profile: string | undefined, after: string | undefined, limit: number, withMembers: boolean): Promise<TGroup[]> {
  const prisma = await getPrisma();
  const where = { ...(profile ? { profile } : {}), ...(after !== undefined ? { id: { gt: after } } : {}) };
  // Members only when asked for: a page of a thousand groups of thousands of members each is millions of rows.
  if (!withMembers) return (await prisma.group.findMany({ where, select: GROUP, orderBy: { id: "asc" }, take: limit })).map((r) => ({ ...toRow(r), members: [] }));
  const rows = await prisma.group.findMany({ where, select: WITH_MEMBERS, orderBy: { id: "asc" }, take: limit });
  return rows.map(toGroup);
}
