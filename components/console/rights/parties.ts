import { CONSOLE_PARTY_TYPES, type TConsoleParty, type TConsolePartyType, type TPartyGrants } from "@/server/rights/api/console";
import type { TRightDefinition, TRightRecord } from "@/server/rights/rights.schemas";
import { parseList } from "../list-text.ts";

// The rights browser's pure parts: which rights and parties fit, the contract's record, the URL.

export type TParty = TConsoleParty;
/** A party the browser can show: one the console can pick. */
export type TBrowsedParty = TParty & { type: TConsolePartyType };
export type TDirection = "of" | "on";
type TKind = TRightDefinition["objectKinds"][number];

/** A definition's kinds name parties the way people do; stored types are the contract's (its, grps). */
const TYPE_OF_KIND: Record<TKind, string> = { user: "user", application: "its", group: "grps" };

const kindsOf = (kinds: readonly TKind[]) => kinds.map((k) => TYPE_OF_KIND[k]);

/** The rights that `type` may hold ("of": as subject) or be held on ("on": as object). */
export function grantableRights(defs: TRightDefinition[], type: string, dir: TDirection): TRightDefinition[] {
  return defs.filter((d) => kindsOf(dir === "of" ? d.subjectKinds : d.objectKinds).includes(type));
}

/** The kinds of the other party the right admits, among those the console can pick. */
export function otherPartyTypes(def: TRightDefinition | undefined, dir: TDirection): TConsolePartyType[] {
  if (!def) return [];
  const allowed = kindsOf(dir === "of" ? def.objectKinds : def.subjectKinds);
  return CONSOLE_PARTY_TYPES.filter((t) => allowed.includes(t));
}

/** The contract's access right record: subjectType only for an application, objectType only for a group or an application. */
export function recordOf(subject: TParty, object: TParty, rights: string[], tags: string[]): TRightRecord {
  return {
    subject: subject.id,
    ...(subject.type === "its" ? { subjectType: "its" as const } : {}),
    object: object.id,
    ...(object.type === "its" ? { objectType: "its" as const } : {}),
    ...(object.type === "grps" ? { objectType: "grps" as const, ...(object.ext ? { objectExt: object.ext } : {}) } : {}),
    rights,
    tags,
  };
}

/** The (subject, object) of a row of a panel: the browsed party is the subject of its "of" panel and the object of its "on" panel. */
export function pairOf(browsed: TParty, other: TParty, dir: TDirection): [TParty, TParty] {
  return dir === "of" ? [browsed, other] : [other, browsed];
}

/** A tag may hold commas and spaces, so tags are one per line; repeats count once. */
export function parseTags(text: string): string[] {
  return [...new Set(parseList(text, "lines"))];
}

export type TGrantRow = { key: string; party: TParty; right: string; tags: string[] };

/** A panel's table rows: one per (other party, right). */
export function rowsOf(groups: TPartyGrants[]): TGrantRow[] {
  return groups.flatMap((g) => g.rights.map((r) => ({ key: JSON.stringify([g.party.type, g.party.id, g.party.ext, r.name]), party: g.party, right: r.name, tags: r.tags })));
}

const isPartyType = (t: string | null): t is TConsolePartyType => (CONSOLE_PARTY_TYPES as readonly (string | null)[]).includes(t);

/** The browsed party lives in the URL (`?type=its&id=crm`), so a reload or a link shows it again. */
export function partyFromSearch(params: { get(name: string): string | null }): TBrowsedParty | null {
  const type = params.get("type");
  const id = params.get("id") ?? "";
  if (!isPartyType(type) || !id || id.length > 256) return null;
  return { type, id, ext: (params.get("ext") ?? "").slice(0, 128) };
}

export function browseHref(p: TParty): string {
  const query = new URLSearchParams({ type: p.type, id: p.id, ...(p.ext ? { ext: p.ext } : {}) });
  return `/console/rights?${query}`;
}
