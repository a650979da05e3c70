import type { Client, Entry } from "ldapts";
import type { TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { publishGroupChange } from "../groups/groups-cache.ts";
import { profileForDirectory, saveGroupForDirectory, setDirectoryGroupsOf, setDirectoryMembers, type TDirectoryActor } from "../groups/directory-members.service.ts";
import type { TGroupProfile } from "../groups/groups.schemas.ts";
import { describeError, log } from "../log/logger.ts";
import type { TDirectory } from "./directories.repository.ts";
import type { TRunCounts } from "./directory-sync.repository.ts";
import { binaryAttributes, firstText, stableIdOf, textsOf } from "./directory-entries.ts";
import { findAccountsByDn, findDirectoryGroups, saveDirectoryGroup, type TDirectoryGroup } from "./directory-groups.repository.ts";
import { dnKey, expandNesting, groupIdFor, groupsOfMemberFilter, MAX_NESTING, parentsFilter, peopleInChainFilter } from "./directory-groups.ts";
import type { TDirectoryGroups } from "./directory.schemas.ts";
import { asService } from "./ldap-client.ts";

/*
 * A directory's groups into groups and memberships here. A synchronised directory's runs end with a
 * group pass over every group of the mapping (incremental runs too: groups are few, and a group's
 * modifyTimestamp does not change when a nested group's members do); an on-demand directory reads a
 * person's groups at each sign-in. Only the memberships the directory made are ever removed, and a
 * group it no longer maps (gone there, or left out of `only`) keeps its id and hand-made members:
 * only the directory's memberships in it go.
 */

const PAGE_SIZE = 500;
// DNs in one search of the parents of groups (expand at sign-in): a filter of a few kilobytes.
const PARENTS_PER_SEARCH = 50;

type TGroupEntry = { dn: string; key: string; externalId: string | undefined; name: string | undefined; members: string[] };

/** What the pass reports to its run: the counts and the failures, as the entries' are. */
export type TGroupReport = { counts: TRunCounts; fail: (dn: string, e: unknown) => void };

/** What a mapping needs through a pass: who acts, the profile, the groups the directory made here; what changed. */
/** `full`: the pass read every group of the mapping (a synchronisation), not one person's (a sign-in). */
type TPass = { d: TDirectory; g: TDirectoryGroups; a: TDirectoryActor; profile: TGroupProfile; made: TDirectoryGroup[]; read: Set<string>; full: boolean; groups: Set<string>; users: Set<string> };

const PROFILE_ATTRIBUTES = [
  { name: "name", type: "string" as const, required: false, maxLength: 256 },
  { name: "dn", type: "string" as const, required: false, maxLength: 1024 },
];

/** `read`: the stable ids of the group entries this pass read. */
async function startPass(d: TDirectory, g: TDirectoryGroups, by: TEventActor, read: TGroupEntry[], full: boolean): Promise<TPass> {
  const a = { directoryId: d.id, by };
  const description = { en: `Groups of the directory "${d.name}" (${d.id}), kept by its group mapping`, ru: `Группы каталога «${d.name}» (${d.id}), которые ведёт его сопоставление групп` };
  return { d, g, a, profile: await profileForDirectory(g.profile, description, PROFILE_ATTRIBUTES, a), made: await findDirectoryGroups(d.id), read: new Set(read.flatMap((e) => e.externalId ?? [])), full, groups: new Set(), users: new Set() };
}

function toGroupEntry(d: TDirectory, g: TDirectoryGroups, e: Entry): TGroupEntry {
  return { dn: e.dn, key: dnKey(e.dn), externalId: stableIdOf(e, d.idAttribute), name: firstText(e, g.nameAttribute), members: textsOf(e, g.memberAttribute).map(dnKey) };
}

const inScope = (g: TDirectoryGroups, name: string | undefined) => name !== undefined && (!g.only || g.only.includes(name));

/** Entries of a paged search (groups are few; a group's members are its attribute's values). */
async function search(client: Client, d: TDirectory, base: string, filter: string, attributes: string[], counts?: TRunCounts): Promise<Entry[]> {
  if (counts) counts.searches++;
  const out: Entry[] = [];
  for await (const page of client.searchPaginated(base, { scope: "sub", filter, attributes, explicitBufferAttributes: binaryAttributes(d), paged: { pageSize: PAGE_SIZE } })) out.push(...page.searchEntries);
  return out;
}

/**
 * The group here a directory group is: the one made from its entry before (found by its stable id,
 * whatever its name became), else the one its name gives, made when missing. A group of that id
 * the directory did not make is never taken over. Undefined (and `fail` told) when there is none.
 */
async function groupHere(pass: TPass, entry: TGroupEntry, fail: (dn: string, e: unknown) => void, counts?: TRunCounts): Promise<string | undefined> {
  const { d, g } = pass;
  if (!entry.externalId) return void fail(entry.dn, new AppError("request.invalid_values", { desc: `the group has no ${d.idAttribute}` }));
  const known = pass.made.find((m) => m.externalId === entry.externalId);
  const id = known?.groupId ?? groupIdFor(g.idPrefix ?? `${d.id}.`, entry.name ?? "");
  if (!id) return void fail(entry.dn, new AppError("request.invalid_values", { desc: `no group id can be made of the name "${entry.name ?? ""}"` }));
  // Made by the directory before: from this entry, or from one of the same name no longer there (made anew
  // there). Two entries of one name both there (in two branches) are two groups: the second is refused, not swapped in.
  // Only a full pass knows an entry is no longer there: a sign-in reads one person's groups, and would
  // take the group of an entry it did not read for one of the same name the person made elsewhere.
  const ours = known !== undefined || (pass.full && pass.made.some((m) => m.groupId === id && !pass.read.has(m.externalId)));
  try {
    const outcome = await saveGroupForDirectory(pass.profile, id, { name: entry.name, dn: entry.dn }, ours, pass.a, (tx) => saveDirectoryGroup(d.id, { groupId: id, externalId: entry.externalId!, dn: entry.dn }, tx));
    if (outcome !== "unchanged") pass.groups.add(id);
    if (counts && outcome === "created") counts.groupsCreated++;
    if (counts && outcome === "updated") counts.groupsUpdated++;
    return id;
  } catch (e) {
    return void fail(entry.dn, e);
  }
}

/** The DN keys of each mapped group's people, nesting resolved as the mapping says. */
async function peopleOfGroups(client: Client, d: TDirectory, g: TDirectoryGroups, all: TGroupEntry[], roots: TGroupEntry[], counts: TRunCounts): Promise<Map<string, Set<string>>> {
  if (g.nesting === "none") return new Map(roots.map((r) => [r.key, new Set(r.members)]));
  if (g.nesting === "expand") {
    const expanded = expandNesting(new Map(all.map((e) => [e.key, e.members])), roots.map((r) => r.key));
    for (const [key, x] of expanded) if (x.deep) log.warn("directory group nested deeper than followed", { directory: d.id, group: key, levels: MAX_NESTING });
    return new Map([...expanded].map(([k, x]) => [k, x.members]));
  }
  // in_chain: the directory follows the nesting; a search of its people per group (AD's memberOf, no range limit on member).
  const out = new Map<string, Set<string>>();
  for (const r of roots) out.set(r.key, new Set((await search(client, d, d.baseDn, peopleInChainFilter(d, r.dn), ["1.1"], counts)).map((e) => dnKey(e.dn))));
  return out;
}

/**
 * The group pass of a synchronisation: every group of the mapping read (paged), made or brought up
 * to date here, and the directory's memberships of each set to its people that are accounts of this
 * directory. The caches are told once, at the end.
 */
export async function syncDirectoryGroups(d: TDirectory, client: Client, report: TGroupReport, by: TEventActor): Promise<void> {
  const g = d.groupMap;
  if (!g) return;
  const { counts, fail } = report;
  // Held in memory: the groups with their members' DNs (groups are few, and nesting needs them all).
  const attributes = [g.nameAttribute, d.idAttribute, ...(g.nesting === "in_chain" ? [] : [g.memberAttribute])];
  const all = (await search(client, d, g.baseDn, g.filter, attributes, counts)).map((e) => toGroupEntry(d, g, e));
  const pass = await startPass(d, g, by, all, true);
  const roots = all.filter((e) => inScope(g, e.name));
  const people = await peopleOfGroups(client, d, g, all, roots, counts);
  const accounts = await findAccountsByDn(d.id, [...new Set([...people.values()].flatMap((s) => [...s]))]);
  try {
    for (const root of roots) {
      const id = await groupHere(pass, root, fail, counts);
      if (id) await setMembers(pass, id, [...(people.get(root.key) ?? [])].flatMap((k) => accounts.get(k) ?? []), counts, root.dn, fail);
    }
    // The groups it made that it maps no more (gone there, or out of `only`): its memberships go, the groups stay.
    const mapped = new Set(roots.map((r) => r.externalId));
    for (const m of pass.made) if (!mapped.has(m.externalId)) await setMembers(pass, m.groupId, [], counts, m.dn, fail);
  } finally {
    await publishGroupChange([...pass.groups], [...pass.users]);
  }
}

async function setMembers(pass: TPass, groupId: string, userIds: string[], counts: TRunCounts, dn: string, fail: (dn: string, e: unknown) => void): Promise<void> {
  try {
    const { added, removed } = await setDirectoryMembers(groupId, userIds, pass.a);
    counts.membersAdded += added.length;
    counts.membersRemoved += removed.length;
    if (added.length + removed.length) pass.groups.add(groupId);
    for (const u of [...added, ...removed]) pass.users.add(u);
  } catch (e) {
    fail(dn, e);
  }
}

/** A person's groups (no members read): those with their DN as a member, and with `expand` their parents, a bounded number of levels up. */
async function groupsOfPerson(client: Client, d: TDirectory, g: TDirectoryGroups, dn: string): Promise<TGroupEntry[]> {
  const attributes = [g.nameAttribute, d.idAttribute];
  const found = new Map<string, TGroupEntry>();
  let frontier = (await search(client, d, g.baseDn, groupsOfMemberFilter(g, dn), attributes)).map((e) => toGroupEntry(d, g, e));
  for (let depth = 0; frontier.length; depth++) {
    for (const e of frontier) found.set(e.key, e);
    if (g.nesting !== "expand" || depth >= MAX_NESTING) break;
    const next: TGroupEntry[] = [];
    for (let i = 0; i < frontier.length; i += PARENTS_PER_SEARCH) {
      const parents = await search(client, d, g.baseDn, parentsFilter(g, frontier.slice(i, i + PARENTS_PER_SEARCH).map((e) => e.dn)), attributes);
      // A group met again (a cycle, or two paths up) is not followed twice.
      for (const p of parents.map((e) => toGroupEntry(d, g, e))) if (!found.has(p.key) && !next.some((n) => n.key === p.key)) next.push(p);
    }
    frontier = next;
  }
  return [...found.values()];
}

/**
 * At an on-demand directory's sign-in: the person's groups read from the directory, made here when
 * missing, and the account's memberships the directory made set to them. A directory that fails
 * here leaves the memberships as they were: the sign-in goes on (its password was checked already).
 */
export async function syncGroupsAtSignIn(d: TDirectory, dn: string, userId: string, by: TEventActor): Promise<void> {
  const g = d.groupMap;
  if (!g) return;
  const fail = (groupDn: string, e: unknown) => log.warn("directory group not mapped", { directory: d.id, dn: groupDn, ...describeError(e) });
  try {
    const found = await asService(d, (client) => groupsOfPerson(client, d, g, dn));
    const pass = await startPass(d, g, by, found, false);
    const entries = found.filter((e) => inScope(g, e.name));
    const ids: string[] = [];
    for (const e of entries) {
      const id = await groupHere(pass, e, fail);
      if (id) ids.push(id);
    }
    const { added, removed } = await setDirectoryGroupsOf(userId, ids, pass.a);
    await publishGroupChange([...pass.groups, ...added, ...removed], added.length + removed.length ? [userId] : []);
  } catch (e) {
    log.warn("directory groups not read at sign-in", { directory: d.id, sub: userId, ...describeError(e) });
  }
}
