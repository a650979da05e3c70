import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { getClientForAuth } from "../clients/clients.service.ts";
import { AppError } from "../errors/app-error.ts";
import { cachedGroup } from "../groups/groups-cache.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import type { TObjectKind, TSubjectKind } from "./rights.schemas.ts";

/*
 * Subjects and objects of rights, and the one place that says whether one exists. Stored types are
 * the contract's: "user", "its" (application), "grps" (group). Listing keys are the contract's too: a
 * user is its id, an application `its|<app_id>`, a group `grps|<grp_id>|<profile>`.
 */

export type TPartyType = "user" | "its" | "grps";
export type TResolvedParty = { type: TPartyType; id: string; ext: string };

export const KIND_OF: Record<TPartyType, TSubjectKind | TObjectKind> = { user: "user", its: "application", grps: "group" };

/** The listing key of a party. */
export function partyKey(type: string, id: string, ext = ""): string {
  if (type === "its") return `its|${id}`;
  if (type === "grps") return `grps|${id}|${ext}`;
  return id;
}

/** The profile of group `id` (checked against `profile` when given), from the groups cache; unknown_group otherwise. */
async function groupProfile(id: string, profile: string | undefined): Promise<string> {
  const g = await cachedGroup(id);
  if (!g || (profile !== undefined && g.profile !== profile)) throw unknownGroup(id, profile);
  return g.profile;
}

const unknownGroup = (id: string, profile?: string) => new AppError("rights.unknown_group", { params: { grpId: id, ...(profile ? { profile } : {}) } });

/** The party as stored, after checking that it exists (400 unknown_user / unknown_rp / unknown_group). */
export async function resolveParty(type: TPartyType, id: string, ext?: string): Promise<TResolvedParty> {
  if (type === "grps") return { type, id, ext: await groupProfile(id, ext) };
  await assertExists(type, id);
  return { type, id, ext: "" };
}

/** The 400 for a user, application or group that does not exist. */
export function unknownParty(type: TPartyType, id: string): AppError {
  if (type === "grps") return unknownGroup(id);
  return type === "its" ? new AppError("rights.unknown_rp", { params: { rpId: id } }) : new AppError("rights.unknown_user", { params: { userId: id } });
}

/**
 * Refuses a user or application that does not exist, through the caches every bearer call uses;
 * without a Promise when they have the answer (an empty listing asks this on every read).
 */
export function assertExists(type: "user" | "its", id: string): TMaybePromise<void> {
  const found = type === "its" ? getClientForAuth(id) : accountSnapshot(id);
  return andThen<unknown, void>(found, (exists) => {
    if (!exists) throw unknownParty(type, id);
  });
}
