import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { publishProfileChange } from "./groups-cache.ts";
import { countGroupsByProfile, deleteProfileRow, insertProfile, lockProfileRow } from "./groups-console.repository.ts";
import { findProfiles, upsertProfile } from "./groups.repository.ts";
import type { TGroupProfile, TGroupProfileImport } from "./groups.schemas.ts";

/*
 * Group profiles outside the import (the console's profiles page). A profile saved with a new schema
 * keeps its groups' stored attributes, as the import does: the schema applies to their next change.
 * A profile with groups cannot be deleted (the groups would lose their schema).
 */

export type TProfileWithUsage = TGroupProfile & { groups: number };

/** Every profile with its schema and how many groups it has, by name. */
export async function listProfiles(): Promise<TProfileWithUsage[]> {
  const [profiles, counts] = await Promise.all([findProfiles(), countGroupsByProfile()]);
  return profiles.map((p) => ({ ...p, groups: counts.get(p.name) ?? 0 }));
}

async function readProfile(name: string): Promise<TProfileWithUsage> {
  const [p] = await findProfiles([name]);
  if (!p) throw new AppError("group.profile_not_found", { params: { profile: name } });
  return { ...p, groups: (await countGroupsByProfile([name])).get(name) ?? 0 };
}

/**
 * Creates the profile (`create`: 409 when the name exists) or replaces its description and schema
 * (404 when it does not exist: an edit of a profile deleted meanwhile must not bring it back).
 */
export async function saveProfile(input: TGroupProfileImport, create: boolean, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TProfileWithUsage> {
  await inTransaction(async (tx) => {
    if (create) {
      // An insert that skips a taken name: a lookup first would let two parallel creations both succeed.
      if (!(await insertProfile(input, tx))) throw new AppError("group.profile_exists", { params: { profile: input.name } });
      return;
    }
    if (!(await lockProfileRow(input.name, tx))) throw new AppError("group.profile_not_found", { params: { profile: input.name } });
    await upsertProfile(input, tx);
  });
  await publishProfileChange([input.name]);
  await recordEvent(create ? "group.profile_created" : "group.profile_changed", actor, { profile: input.name, attributes: input.attributes.map((a) => a.name), ...note });
  return readProfile(input.name);
}

/** Deletes a profile without groups; one with groups is refused (409, params.groups) and nothing changes. */
export async function removeProfile(name: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  await inTransaction(async (tx) => {
    // Locked before counting: a group being created meanwhile either commits first (and is counted) or waits and then fails.
    if (!(await lockProfileRow(name, tx))) throw new AppError("group.profile_not_found", { params: { profile: name } });
    const groups = (await countGroupsByProfile([name], tx)).get(name) ?? 0;
    if (groups) throw new AppError("group.profile_in_use", { params: { profile: name, groups } });
    await deleteProfileRow(name, tx);
  });
  await publishProfileChange([name]);
  await recordEvent("group.profile_deleted", actor, { profile: name, ...note });
}
