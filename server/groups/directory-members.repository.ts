import type { TTx } from "../db/index.ts";

// Prisma for the memberships a directory owns (group_members.directory_id): read, added, removed in sets.

// Rows a statement writes at most: a large group's members go in a few statements, not one a member.
const CHUNK = 5_000;

/** The group's members this directory made. */
export async function findDirectoryMemberIds(groupId: string, directoryId: string, tx: TTx): Promise<string[]> {
  const rows = await tx.groupMember.findMany({ where: { groupId, directoryId }, select: { userId: true } });
  return rows.map((r) => r.userId);
}

/** The groups whose membership of the account this directory made. */
export async function findDirectoryGroupIdsOf(userId: string, directoryId: string, tx: TTx): Promise<string[]> {
  const rows = await tx.groupMember.findMany({ where: { userId, directoryId }, select: { groupId: true } });
  return rows.map((r) => r.groupId);
}

/** Adds memberships as the directory's; a pair that is a member already (by hand) stays as it is. The pairs added. */
export async function insertDirectoryMembers(rows: { groupId: string; userId: string }[], directoryId: string, tx: TTx): Promise<{ groupId: string; userId: string }[]> {
  const added: { groupId: string; userId: string }[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const data = rows.slice(i, i + CHUNK).map((r) => ({ ...r, directoryId }));
    added.push(...(await tx.groupMember.createManyAndReturn({ data, skipDuplicates: true, select: { groupId: true, userId: true } })));
  }
  return added;
}

/** Removes the group's memberships of these accounts that the directory made (never a hand-made one); the accounts removed. */
export async function deleteDirectoryMembers(groupId: string, userIds: string[], directoryId: string, tx: TTx): Promise<string[]> {
  const removed: string[] = [];
  for (let i = 0; i < userIds.length; i += CHUNK) {
    // RETURNING: a membership an administrator took over meanwhile is not the directory's to remove, nor in the events.
    const rows = await tx.$queryRaw<{ user_id: string }[]>`
      DELETE FROM group_members WHERE group_id = ${groupId} AND directory_id = ${directoryId} AND user_id = ANY(${userIds.slice(i, i + CHUNK)}::text[]) RETURNING user_id`;
    removed.push(...rows.map((r) => r.user_id));
  }
  return removed;
}
