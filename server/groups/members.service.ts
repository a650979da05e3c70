import { recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { isForeignKeyViolation } from "../db/errors.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { accountIdOfSubject } from "../users/subject-param.ts";
import { cachedGroup, cachedGroupIdsOf, publishGroupChange } from "./groups-cache.ts";
import { deleteMembers, findExistingUsers, insertMembers, lockGroup } from "./groups.repository.ts";
import type { TGroup } from "./groups.schemas.ts";
import { notFound, profileOf } from "./groups.service.ts";

/*
 * Membership: members are accounts. Adding is idempotent (a member already in stays, without an
 * event) and a list is added all or nothing; removing a non-member changes nothing. Each change is a
 * security event of the member (who acted, which group, which client), written in the changing
 * transaction. Membership does not bump the group's instanceId, which versions its attributes.
 */

const unknownUser = (userId: string) => new AppError("group.unknown_user", { params: { userId } });

/** In the transaction: the group, locked against deletion until it ends, in `profile` when named. */
async function lockedGroup(id: string, profile: string | undefined, tx: TTx): Promise<{ id: string; profile: string }> {
  const g = await lockGroup(id, "share", tx);
  if (!g || (profile !== undefined && g.profile !== profile)) throw notFound(id);
  return g;
}

export function memberEvents(type: "group.member_added" | "group.member_removed", g: { id: string; profile: string }, members: string[], by: TEventActor, note: Record<string, unknown> = {}) {
  // The event belongs to the member, as a grant's belongs to the user who receives it; the client is who acted.
  return members.map((member) => ({ type, actor: { ...by, subject: member }, params: { group: g.id, profile: g.profile, member, actingUser: by.subject ?? null, ...note } }));
}

/** Adds the accounts to the group in the caller's transaction; the ones that were not members yet. */
export async function addMembersIn(g: { id: string; profile: string }, userIds: string[], by: TEventActor, tx: TTx): Promise<string[]> {
  // Sorted: parallel lists naming the same accounts in other orders then wait for each other instead of deadlocking.
  const ids = [...new Set(userIds)].sort();
  if (!ids.length) return [];
  const existing = await findExistingUsers(ids, tx);
  const missing = userIds.find((u) => !existing.has(u));
  if (missing !== undefined) throw unknownUser(missing);
  const added = await insertMembers(g.id, ids, tx);
  await recordEvents(memberEvents("group.member_added", g, added, by), tx);
  return added;
}

/**
 * POST /api/v3/groups/{profile}/{id}/members[/{subjectId}]: every account must exist (400
 * unknown_user naming the first that does not, and nothing changes).
 */
export async function addMembers(profile: string | undefined, id: string, userIds: string[], by: TEventActor): Promise<void> {
  const added = await inTransaction(async (tx) => addMembersIn(await lockedGroup(id, profile, tx), userIds, by, tx)).catch(async (e: unknown) => {
    // An account deleted between the check and the insert.
    if (isForeignKeyViolation(e)) throw unknownUser(userIds.join(","));
    throw e;
  });
  if (added.length) await publishGroupChange([id], added);
}

/**
 * DELETE /api/v3/groups/{profile}/{id}/members/{subjectId}. A system token removes anyone; a user
 * token (idp_api_groups_chg) only its own user (the route checks the subject), from a group it is a
 * member of: any other group is answered 404, as for its reads.
 */
export async function removeMember(ctx: TRequestContext, profile: string | undefined, id: string, subjectId: string, by: TEventActor): Promise<void> {
  const removed = await inTransaction(async (tx) => {
    const g = await lockedGroup(id, profile, tx);
    if (!(await findExistingUsers([subjectId], tx)).has(subjectId)) throw unknownUser(subjectId);
    const n = await deleteMembers(g.id, [subjectId], tx);
    if (!n && ctx.actor.mode === "user") throw notFound(id);
    await recordEvents(memberEvents("group.member_removed", g, n ? [subjectId] : [], by), tx);
    return n;
  });
  if (removed) await publishGroupChange([id], [subjectId]);
}

/**
 * GET /api/v3/users/{subjectId}/grps[/{profile}]: the account's groups in id order (of one profile
 * when named: 404 for an unknown profile). Hot: answered from the caches.
 */
export async function groupsOfUser(ctx: TRequestContext, subjectId: string, profile?: string): Promise<TGroup[]> {
  const userId = await accountIdOfSubject(ctx, subjectId);
  if (profile !== undefined) await profileOf(profile);
  const groups = await Promise.all((await cachedGroupIdsOf(userId)).map((id) => cachedGroup(id)));
  return groups.filter((g): g is TGroup => !!g && (profile === undefined || g.profile === profile));
}

/** The ids of the groups the account belongs to (a SAML application may be sent them), from the cache. */
export async function groupIdsOfAccount(userId: string): Promise<readonly string[]> {
  return cachedGroupIdsOf(userId);
}
