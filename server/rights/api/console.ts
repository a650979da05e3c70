import type { TGrantRow } from "../rights.repository.ts";

/** A party as the console names it: the stored type (user, its, grps), id, and a group's profile. */
export type TConsoleParty = { type: string; id: string; ext: string };
export type TPartyGrants = { party: TConsoleParty; rights: { name: string; tags: string[] }[] };

/**
 * The console's rights browser: rows grouped by the other party (the object for "of", the subject
 * for "on"), then by right with its tags. Unlike the v3 listings the parties stay structured, so the
 * browser never parses `its|…` keys, and tags are kept both ways, so it can revoke one from either panel.
 * Rows come sorted by the other party, right and tag; groups and rights keep that order.
 */
export function groupGrants(rows: TGrantRow[], dir: "of" | "on"): TPartyGrants[] {
  const groups = new Map<string, TPartyGrants>();
  for (const r of rows) {
    const party = dir === "of" ? { type: r.objectType, id: r.objectId, ext: r.objectExt } : { type: r.subjectType, id: r.subjectId, ext: "" };
    const key = JSON.stringify([party.type, party.id, party.ext]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { party, rights: [] }));
    let right = group.rights.at(-1);
    if (right?.name !== r.rightName) group.rights.push((right = { name: r.rightName, tags: [] }));
    right.tags.push(r.tag);
  }
  return [...groups.values()];
}

/** The kinds of party the console's rights browser picks (each has a finder and a search label). */
export const CONSOLE_PARTY_TYPES = ["user", "its", "grps"] as const;
export type TConsolePartyType = (typeof CONSOLE_PARTY_TYPES)[number];
