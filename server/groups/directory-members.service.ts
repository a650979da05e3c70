import { recordEvent, recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { checkGroupAttrs, uniqueValues } from "./group-attrs.ts";
import { publishProfileChange } from "./groups-cache.ts";
import { insertProfile } from "./groups-console.repository.ts";
import { findGroupRow, findProfiles, lockGroup, lockProfileValues } from "./groups.repository.ts";
import type { TGroupAttrDef, TGroupProfile } from "./groups.schemas.ts";
import { insertCheckedGroup, notFound, replaceCheckedAttrs } from "./groups.service.ts";
import { deleteDirectoryMembers, findDirectoryGroupIdsOf, findDirectoryMemberIds, insertDirectoryMembers } from "./directory-members.repository.ts";
import { memberEvents } from "./members.service.ts";

/*
 * The groups and memberships a directory's group mapping keeps (directories/directory-groups.service.ts
 * decides which). A membership it adds is marked as the directory's, and it removes only those: a
 * member an administrator added by hand stays whatever the directory says. Each change is the same
 * event as any other's, with `by: "directory"` and the directory's id in its params. The caller
 * publishes the caches' changes once, after all of its writes.
 */

export type TDirectoryActor = { directoryId: string; by: TEventActor };

const noteOf = (a: TDirectoryActor) => ({ by: "directory", directory: a.directoryId });

/** The profile, made with `attributes` when there is none; as stored either way. */
export async function profileForDirectory(name: string, description: TGroupProfile["description"], attributes: TGroupAttrDef[], a: TDirectoryActor): Promise<TGroupProfile> {
  const [stored] = await findProfiles([name]);
  if (stored) return stored;
  const made = await inTransaction((tx) => insertProfile({ name, description, attributes }, tx));
  // Made by a parallel run meanwhile: theirs is the one.
  if (!made) return (await findProfiles([name]))[0]!;
  await publishProfileChange([name]);
  await recordEvent("group.profile_created", a.by, { profile: name, attributes: attributes.map((d) => d.name), ...noteOf(a) });
  return { name, description, attributes };
}

/**
 * Creates the group, or replaces its attributes where they differ (those of `input` the profile has),
 * and runs `alongside` in the same transaction (the directory's record of the group). A group of
 * that id that is not the directory's (`ours` false), or of another profile, is never taken over:
 * 409 group.exists, nothing changes.
 */
export async function saveGroupForDirectory(
  profile: TGroupProfile,
  id: string,
  input: Record<string, unknown>,
  ours: boolean,
  a: TDirectoryActor,
  alongside: (tx: TTx) => Promise<void>,
): Promise<"created" | "updated" | "unchanged"> {
  const known = new Set(profile.attributes.map((d) => d.name));
  const attrs = checkGroupAttrs(profile.attributes, Object.fromEntries(Object.entries(input).filter(([k]) => known.has(k))));
  const taken = () => new AppError("group.exists", { params: { grpId: id } });
  const outcome = await inTransaction(async (tx) => {
    // The unique values' lock before the row's, in the order the other writers take them.
    if (uniqueValues(profile.attributes, attrs).length) await lockProfileValues(profile.name, tx);
    const locked = await lockGroup(id, "update", tx);
    if (!locked) {
      if (!(await insertCheckedGroup(profile, id, attrs, tx))) throw taken();
      await alongside(tx);
      return "created";
    }
    if (!ours || locked.profile !== profile.name) throw taken();
    const changed = !sameJson((await findGroupRow(id, tx))?.attrs ?? {}, attrs);
    if (changed) await replaceCheckedAttrs(profile, id, attrs, tx);
    await alongside(tx);
    return changed ? "updated" : "unchanged";
  });
  if (outcome !== "unchanged") await recordEvent(outcome === "created" ? "group.created" : "group.changed", a.by, { group: id, profile: profile.name, ...noteOf(a) });
  return outcome;
}

/**
 * Makes the group's memberships that the directory made exactly `userIds`, in one transaction with
 * set-based writes: the missing ones added (a member already there by hand stays hand-made), the
 * others the directory made removed. The accounts added and removed.
 */
export async function setDirectoryMembers(groupId: string, userIds: string[], a: TDirectoryActor): Promise<{ added: string[]; removed: string[] }> {
  return inTransaction(async (tx) => {
    const g = await lockGroup(groupId, "share", tx);
    if (!g) throw notFound(groupId);
    const current = new Set(await findDirectoryMemberIds(groupId, a.directoryId, tx));
    const wanted = new Set(userIds);
    // Sorted: two writers adding the same accounts wait for each other instead of deadlocking.
    const toAdd = [...wanted].filter((u) => !current.has(u)).sort();
    const toRemove = [...current].filter((u) => !wanted.has(u)).sort();
    const added = (await insertDirectoryMembers(toAdd.map((userId) => ({ groupId, userId })), a.directoryId, tx)).map((r) => r.userId);
    const removed = toRemove.length ? await deleteDirectoryMembers(groupId, toRemove, a.directoryId, tx) : [];
    await recordEvents([...memberEvents("group.member_added", g, added, a.by, noteOf(a)), ...memberEvents("group.member_removed", g, removed, a.by, noteOf(a))], tx);
    return { added, removed };
  });
}

/**
 * Makes the account's memberships that the directory made exactly those of `groupIds` (a person's
 * groups, read at sign-in); hand-made ones stay. The groups joined and left.
 */
export async function setDirectoryGroupsOf(userId: string, groupIds: string[], a: TDirectoryActor): Promise<{ added: string[]; removed: string[] }> {
  return inTransaction(async (tx) => {
    const current = new Set(await findDirectoryGroupIdsOf(userId, a.directoryId, tx));
    const wanted = new Set(groupIds);
    const events = [];
    const added: string[] = [];
    const removed: string[] = [];
    // A person's groups are few: a statement each, in id order.
    for (const id of [...new Set([...current, ...wanted])].sort()) {
      if (current.has(id) === wanted.has(id)) continue;
      const g = await lockGroup(id, "share", tx);
      if (!g) continue;
      if (wanted.has(id)) {
        const done = await insertDirectoryMembers([{ groupId: id, userId }], a.directoryId, tx);
        if (!done.length) continue;
        added.push(id);
        events.push(...memberEvents("group.member_added", g, [userId], a.by, noteOf(a)));
      } else if ((await deleteDirectoryMembers(id, [userId], a.directoryId, tx)).length) {
        removed.push(id);
        events.push(...memberEvents("group.member_removed", g, [userId], a.by, noteOf(a)));
      }
    }
    await recordEvents(events, tx);
    return { added, removed };
  });
}
