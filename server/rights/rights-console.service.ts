import { listClients } from "../clients/clients.service.ts";
import { findGroupsToPick, membersAmong } from "../groups/groups-console.service.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { labelsOf, listUsers, type TPersonLabel } from "../users/users-console.service.ts";
import { groupGrants, type TConsolePartyType, type TPartyGrants } from "./api/console.ts";
import { listGrantRows } from "./listings.service.ts";
import type { TPartyType } from "./parties.ts";

// The console's rights browser: parties to pick, and the rights of and on one. Definitions, grants
// and revokes go straight to the services the REST API uses (see the console's rights router).

const PICK_LIMIT = 10;

export type TPartyOption = { type: TConsolePartyType; id: string; ext: string; label: string };

/**
 * How each kind of party is found from what an administrator types: the users' and clients' own
 * console searches. The users' search reads searchable attributes, not the sub, so a sub typed whole
 * is looked up as well and comes first.
 */
const FINDERS: Record<TConsolePartyType, (search: string | undefined) => Promise<TPartyOption[]>> = {
  user: async (search) => {
    const [{ items }, exact] = await Promise.all([listUsers({ search, limit: PICK_LIMIT }), search ? accountSnapshot(search) : null]);
    const found: TPartyOption[] = items.map((u) => ({ type: "user", id: u.sub, ext: "", label: [u.givenName, u.familyName].filter(Boolean).join(" ") || (u.email ?? "") }));
    if (!exact || found.some((o) => o.id === exact.account.id)) return found;
    return [{ type: "user", id: exact.account.id, ext: "", label: "" }, ...found];
  },
  its: async (search) => {
    const { items } = await listClients({ search, limit: PICK_LIMIT });
    return items.map((c) => ({ type: "its", id: c.id, ext: "", label: c.name }));
  },
  // A group is named by its id and profile (the listings' grps|<id>|<profile>); ids are global, so the prefix of one finds it.
  grps: async (search) => (await findGroupsToPick(search ?? "", PICK_LIMIT)).map((g) => ({ type: "grps", id: g.id, ext: g.profile, label: g.profile })),
};

/** Parties matching `search`; with `notInGroup`, the accounts that are not members of that group already. */
export async function findParties(type: TConsolePartyType, search: string, notInGroup?: string): Promise<TPartyOption[]> {
  const found = await FINDERS[type](search.trim() || undefined);
  if (type !== "user" || notInGroup === undefined) return found;
  const members = await membersAmong(notInGroup, found.map((o) => o.id));
  return found.filter((o) => !members.has(o.id));
}

/** `people`: how to name each account among the parties (the browsed one included), by its id. */
export type TRightsOfAndOn = { of: TPartyGrants[] | null; on: TPartyGrants[]; people: Record<string, TPersonLabel> };

/** Both panels of the browser. A group is never a subject, so it has no "of" panel. */
export async function browseRights(party: { type: TPartyType; id: string; ext?: string }): Promise<TRightsOfAndOn> {
  const [of, on] = await Promise.all([party.type === "grps" ? null : listGrantRows("of", party), listGrantRows("on", party)]);
  const groups = { of: of && groupGrants(of, "of"), on: groupGrants(on, "on") };
  const users = [party, ...[...(groups.of ?? []), ...groups.on].map((g) => g.party)].filter((p) => p.type === "user").map((p) => p.id);
  return { ...groups, people: Object.fromEntries(await labelsOf(users)) };
}
