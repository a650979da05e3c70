import { createHash } from "node:crypto";
import { EqualityFilter, ExtensibleFilter } from "ldapts";
import { ZGroupId } from "../groups/groups.schemas.ts";
import type { TDirectory } from "./directories.repository.ts";
import type { TDirectoryGroups } from "./directory.schemas.ts";

/*
 * The pure part of a directory's group mapping, tested without a server: the filters that find a
 * person's groups and a group's people (DNs escaped as RFC 4515 asks), the ids the groups get here,
 * and the expansion of nested groups with cycles and depth bounded.
 */

/** Active Directory's LDAP_MATCHING_RULE_IN_CHAIN: the match follows nested groups on the server. */
export const IN_CHAIN = "1.2.840.113556.1.4.1941";

/** How deep nested groups are followed here (`expand`); deeper ones are left out. */
export const MAX_NESTING = 10;

/**
 * How a DN is compared: case-insensitively, as the directory's DN matching does for the usual
 * attribute types (cn, uid, ou, dc). The accounts' DNs are compared in SQL with lower() alike.
 */
export const dnKey = (dn: string): string => dn.trim().toLowerCase();

/** One value of the member attribute, or with AD's in-chain rule (the directory then follows nested groups). */
function memberTest(attribute: string, dn: string, chain: boolean): string {
  return chain ? new ExtensibleFilter({ matchType: attribute, rule: IN_CHAIN, value: dn }).toString() : new EqualityFilter({ attribute, value: dn }).toString();
}

/** The groups of the filter that have `dn` as a member: directly, or through nesting with `in_chain`. */
export function groupsOfMemberFilter(g: TDirectoryGroups, dn: string): string {
  return `(&${g.filter}${memberTest(g.memberAttribute, dn, g.nesting === "in_chain")})`;
}

/** The groups of the filter that have any of these groups as a member (`expand`, one level up). */
export function parentsFilter(g: TDirectoryGroups, dns: string[]): string {
  const tests = dns.map((dn) => memberTest(g.memberAttribute, dn, false)).join("");
  return `(&${g.filter}${dns.length === 1 ? tests : `(|${tests})`})`;
}

/** `in_chain`, synchronised: the people of the user filter in the group, nested groups followed by the directory (AD's memberOf). */
export function peopleInChainFilter(d: Pick<TDirectory, "userFilter">, groupDn: string): string {
  return `(&${d.userFilter}${new ExtensibleFilter({ matchType: "memberOf", rule: IN_CHAIN, value: groupDn }).toString()})`;
}

const ALLOWED = /^[A-Za-z0-9._@+-]$/;

/**
 * The id a directory group gets here: the prefix and its name. A name that is not kept exactly (a
 * space, made `_`; a character outside a group id's: . _ @ + -, letters and digits of ASCII; a name
 * too long) gets eight hex digits of its name's hash, so two names never share an id by what they
 * lost: `Domain Admins` and `Domain_Admins`, or `Разработка` and `Продажи`, are two groups.
 * Undefined when no valid id comes out.
 */
export function groupIdFor(prefix: string, name: string): string | undefined {
  // A group without a name would be the prefix alone: every nameless group one id.
  if (!name.trim()) return undefined;
  const kept = [...name.trim().replace(/\s+/g, "_")].filter((c) => ALLOWED.test(c)).join("");
  const lost = kept !== name || prefix.length + kept.length > 128;
  const suffix = lost ? `${kept ? "-" : ""}${createHash("sha256").update(name).digest("hex").slice(0, 8)}` : "";
  const id = `${prefix}${kept.slice(0, 128 - prefix.length - suffix.length)}${suffix}`;
  return ZGroupId.safeParse(id).success ? id : undefined;
}

/**
 * `expand`: each root group's members that are not groups, following members that are groups (of
 * `direct`, keyed by dnKey) down to `maxDepth` levels. A cycle ends where a group is met again;
 * `deep` says a root had groups below the bound, which were left out.
 */
export function expandNesting(direct: ReadonlyMap<string, readonly string[]>, roots: readonly string[], maxDepth = MAX_NESTING): Map<string, { members: Set<string>; deep: boolean }> {
  const out = new Map<string, { members: Set<string>; deep: boolean }>();
  for (const root of roots) {
    const members = new Set<string>();
    const visited = new Set([root]);
    let frontier = [root];
    let deep = false;
    for (let depth = 0; frontier.length; depth++) {
      const next: string[] = [];
      for (const group of frontier) {
        for (const m of direct.get(group) ?? []) {
          if (!direct.has(m)) members.add(m);
          else if (visited.has(m)) continue;
          else if (depth + 1 > maxDepth) deep = true;
          else {
            visited.add(m);
            next.push(m);
          }
        }
      }
      frontier = next;
    }
    out.set(root, { members, deep });
  }
  return out;
}
