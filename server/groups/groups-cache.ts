import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import { findGroup, findGroupIdsOf, findProfiles } from "./groups.repository.ts";
import type { TGroup, TGroupProfile } from "./groups.schemas.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";

// A group (with its members) and the groups of an account are read far more often than they change,
// and rights check groups on every grant: both are held in process, dropped in every process through
// the change bus after a change commits (a deleted account: everything, as its memberships went by
// cascade). The TTL only bounds a change made behind the service's back.
const GROUPS_TOPIC = "groups";
const MEMBERSHIPS_TOPIC = "group-memberships";
const groups = keyedCache<TGroup | null>(GROUPS_TOPIC, { ttlMs: 60_000, maxEntries: 20_000 });
const memberships = keyedCache<string[]>(MEMBERSHIPS_TOPIC, { ttlMs: 60_000, maxEntries: 50_000 });
// Profiles change only through the import (and later the console); every group write checks one.
const PROFILES_TOPIC = "group-profiles";
const profiles = keyedCache<TGroupProfile | null>(PROFILES_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1_000 });
// Every profile at once, for the search over all of them (its fields are the union of their schemas).
const PROFILE_LIST_TOPIC = "group-profile-list";
const profileList = keyedCache<TGroupProfile[]>(PROFILE_LIST_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 1 });

/** The profile with its attribute schema, or null. */
export async function cachedProfile(name: string): Promise<TGroupProfile | null> {
  return profiles.read(name, async () => (await findProfiles([name]))[0] ?? null);
}

/** Every profile, in name order. */
export async function cachedProfiles(): Promise<TGroupProfile[]> {
  return profileList.read("all", () => findProfiles());
}

/** After profiles changed. */
export async function publishProfileChange(names: string[]): Promise<void> {
  for (const name of new Set(names)) await publishChange(PROFILES_TOPIC, name);
  if (names.length) await publishChange(PROFILE_LIST_TOPIC);
}

/** The group with its members, or null. */
export function cachedGroup(id: string): TMaybePromise<TGroup | null> {
  return groups.read(id, findGroup);
}

/** The ids of the account's groups, in id order. */
export function cachedGroupIdsOf(userId: string): TMaybePromise<string[]> {
  return memberships.read(userId, findGroupIdsOf);
}

/** After a change to these groups and these accounts' memberships committed. */
export async function publishGroupChange(groupIds: string[], userIds: string[] = []): Promise<void> {
  for (const id of new Set(groupIds)) await publishChange(GROUPS_TOPIC, id);
  // Many members (a deleted group, an import): every account's list rather than a message each.
  if (userIds.length > 100) return publishChange(MEMBERSHIPS_TOPIC);
  for (const id of new Set(userIds)) await publishChange(MEMBERSHIPS_TOPIC, id);
}

/** After changes too many to name (an account deleted, an import): every process drops everything. */
export async function publishAllGroupsChange(): Promise<void> {
  await publishChange(GROUPS_TOPIC);
  await publishChange(MEMBERSHIPS_TOPIC);
}
