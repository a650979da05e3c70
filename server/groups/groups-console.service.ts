import { AUTH_APPS } from "../auth/apps.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { findGroupsByIdPrefix, findMembersAmong, findMembersPage, findProfileGroupsPage, type TGroupListRow } from "./groups-console.repository.ts";
import { groupOrNotFound, profileOf } from "./groups.service.ts";
import { labelsOf, type TPersonLabel } from "../users/users-console.service.ts";

// The console's reads of groups; its changes go straight to the services the REST API uses.

export type TGroupPage = { items: TGroupListRow[]; nextCursor: string | null };

/** A keyset page of the profile's groups whose id starts with `prefix` (404 for an unknown profile). */
export async function listProfileGroups(q: { profile: string; prefix: string; after?: string; limit: number }): Promise<TGroupPage> {
  await profileOf(q.profile);
  const rows = await findProfileGroupsPage(q.profile, q.prefix, q.after, q.limit + 1);
  const items = rows.slice(0, q.limit);
  return { items, nextCursor: rows.length > q.limit ? items.at(-1)!.id : null };
}

/** Members as account ids, in order, and how the console names each (see PersonLink). */
export type TMemberPage = { items: string[]; people: Record<string, TPersonLabel>; total: number; nextCursor: string | null };

/** A keyset page of the group's members (account ids, in order), 404 when the group is not in `profile`. */
export async function listGroupMembers(q: { profile: string; id: string; after?: string; limit: number }): Promise<TMemberPage> {
  await groupOrNotFound(q.id, q.profile);
  const { ids, total } = await findMembersPage(q.id, q.after, q.limit + 1);
  const items = ids.slice(0, q.limit);
  const people = Object.fromEntries(await labelsOf(items));
  return { items, people, total, nextCursor: ids.length > q.limit ? items.at(-1)! : null };
}

/**
 * The request context the membership service expects. It tells user tokens (which may only remove
 * their own user) from everyone else; an administrator in the console acts with a system token's
 * authority, through the console's own client.
 */
export function consoleRequestContext(requestId: string): TRequestContext {
  return { requestId, actor: { mode: "system", clientId: AUTH_APPS.console.clientId, scopes: [], jti: "" } };
}

/** Groups to pick by what an administrator typed: those whose id starts with it, any profile. */
export function findGroupsToPick(prefix: string, limit: number): Promise<{ id: string; profile: string }[]> {
  return findGroupsByIdPrefix(prefix, limit);
}

/** Which of `userIds` are in the group already: the member picker leaves them out. */
export function membersAmong(groupId: string, userIds: string[]): Promise<Set<string>> {
  return findMembersAmong(groupId, userIds);
}
