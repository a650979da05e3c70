import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { publishRightsChange } from "../rights/rights-cache.ts";
import { newInstanceId } from "../users/account.ts";
import { checkGroupAttrs, uniqueValues } from "./group-attrs.ts";
import { cachedGroup, cachedProfile, publishGroupChange } from "./groups-cache.ts";
import { deleteGroupRow, findGroupsPage, findValueHolder, insertGroup, lockGroup, lockProfileValues, updateGroup } from "./groups.repository.ts";
import type { TGroup, TGroupAttrValue, TGroupProfile } from "./groups.schemas.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { insertSeedGroups } from "./groups-seed.repository.ts";

/*
 * Groups of a profile: POST creates (409 when the id is taken in any profile, ids being global), PUT
 * replaces the attributes of an existing group (404 when missing; with an instanceId, 409 when it is
 * no longer current), DELETE removes it with its memberships and the rights on it. Only system
 * tokens change groups; membership has its own service (members.service.ts).
 */

export const notFound = (id: string) => new AppError("group.not_found", { params: { grpId: id } });

/** The profile, from the cache; 404 when there is none. */
export async function profileOf(name: string): Promise<TGroupProfile> {
  const p = await cachedProfile(name);
  if (!p) throw new AppError("group.profile_not_found", { params: { profile: name } });
  return p;
}

/**
 * GET /api/v3/groups/{id}: the group with its members. A user token reads only groups its user is a
 * member of; another is answered as missing, so the answer does not tell which groups exist.
 */
export async function readGroup(ctx: TRequestContext, id: string): Promise<TGroup> {
  const g = await groupOrNotFound(id);
  if (ctx.actor.mode === "user" && !g.members.includes(ctx.actor.userId)) throw notFound(id);
  return g;
}

/** The group (in `profile`, when named) from the cache; 404 otherwise. */
export async function groupOrNotFound(id: string, profile?: string): Promise<TGroup> {
  const g = await cachedGroup(id);
  if (!g || (profile !== undefined && g.profile !== profile)) throw notFound(id);
  return g;
}

/** Another group of the profile holding a unique value is a 400 naming the attribute. */
async function assertUnique(profile: TGroupProfile, id: string, attrs: Record<string, TGroupAttrValue>, tx: TTx): Promise<void> {
  const values = uniqueValues(profile.attributes, attrs);
  if (!values.length) return;
  await lockProfileValues(profile.name, tx);
  for (const v of values) {
    if (await findValueHolder(profile.name, v, id, tx)) {
      throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "another group of this profile has this value", pos: v.name }] });
    }
  }
}

/** Creates the group in the caller's transaction; false when the id is taken. */
export async function insertCheckedGroup(profile: TGroupProfile, id: string, attrs: Record<string, TGroupAttrValue>, tx: TTx): Promise<boolean> {
  await assertUnique(profile, id, attrs, tx);
  return insertGroup({ id, profile: profile.name, instanceId: newInstanceId(id), attrs }, tx);
}

/** Replaces the attributes of the locked group in the caller's transaction. */
export async function replaceCheckedAttrs(profile: TGroupProfile, id: string, attrs: Record<string, TGroupAttrValue>, tx: TTx): Promise<void> {
  await assertUnique(profile, id, attrs, tx);
  await updateGroup(id, attrs, newInstanceId(id), tx);
}

/** POST /api/v3/groups/{profile}/{id}: 201 with the new group; 409 when the id is taken. */
export async function createGroup(profileName: string, id: string, input: Record<string, unknown>, actor: TEventActor): Promise<TGroup> {
  const profile = await profileOf(profileName);
  const attrs = checkGroupAttrs(profile.attributes, input);
  const created = await inTransaction((tx) => insertCheckedGroup(profile, id, attrs, tx));
  if (!created) throw new AppError("group.exists", { params: { grpId: id } });
  await publishGroupChange([id]);
  await recordEvent("group.created", actor, { group: id, profile: profile.name });
  return groupOrNotFound(id);
}

/**
 * PUT /api/v3/groups/{profile}/{id}: the attributes become exactly `input` (a missing one is
 * removed). With `instanceId`, a group changed since that read is refused (409) and nothing changes:
 * of two replacements from the same read exactly one succeeds. Members stay.
 */
export async function replaceGroup(profileName: string | undefined, id: string, input: Record<string, unknown>, instanceId: string | undefined, actor: TEventActor): Promise<TGroup> {
  const current = await groupOrNotFound(id, profileName);
  const profile = await profileOf(current.profile);
  const attrs = checkGroupAttrs(profile.attributes, input);
  await inTransaction(async (tx) => {
    // The profile's unique-values lock before the row, in the order the import takes them: two
    // writers taking them in opposite orders could deadlock.
    if (uniqueValues(profile.attributes, attrs).length) await lockProfileValues(profile.name, tx);
    const locked = await lockGroup(id, "update", tx);
    if (!locked || locked.profile !== profile.name) throw notFound(id);
    if (instanceId !== undefined && instanceId !== locked.instanceId) throw new AppError("group.stale_instance", { params: { instanceId } });
    await replaceCheckedAttrs(profile, id, attrs, tx);
  });
  await publishGroupChange([id]);
  await recordEvent("group.changed", actor, { group: id, profile: profile.name, attributes: Object.keys(attrs) });
  return groupOrNotFound(id);
}

/** DELETE /api/v3/groups/{profile}/{id}: the group, its memberships and every right on it. */
export async function deleteGroup(profileName: string | undefined, id: string, actor: TEventActor): Promise<void> {
  const { profile, members } = await inTransaction(async (tx) => {
    const locked = await lockGroup(id, "update", tx);
    if (!locked || (profileName !== undefined && locked.profile !== profileName)) throw notFound(id);
    return { profile: locked.profile, members: await deleteGroupRow(id, tx) };
  });
  await publishGroupChange([id], members);
  // Its grants went with it (a trigger): the listings of their subjects too.
  await publishRightsChange();
  await recordEvent("group.deleted", actor, { group: id, profile, members: members.length });
}

/** The v2 list: a keyset page of groups in id order, of one profile when named (404 when unknown). */
export async function listGroups(profile: string | undefined, after: string | undefined, limit: number, withMembers: boolean): Promise<TGroup[]> {
  if (profile !== undefined) await profileOf(profile);
  // One read for the page, not one per group: a page may hold a thousand.
  return findGroupsPage(profile, after, limit, withMembers);
}
