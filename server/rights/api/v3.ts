import { partyKey } from "../parties.ts";
import type { TGrantRow } from "../rights.repository.ts";

// The listings are keyed by account and application ids, a different set of names on every request.
// A plain `{}` gives each new name a hidden-class transition that V8 keeps for the process's life
// (measured: 2.5× slower to build, and a heap that grows with every account ever listed); an object
// without a prototype is a dictionary from the start. JSON.stringify writes both alike.
const dictionary = <V>(): Record<string, V> => Object.create(null) as Record<string, V>;

/** GET …/rights/of/…: object key → right → tags (rows come in object, right, tag order). */
export function toRightsOf(rows: TGrantRow[]): Record<string, Record<string, string[]>> {
  const out = dictionary<Record<string, string[]>>();
  for (const r of rows) {
    const rights = (out[partyKey(r.objectType, r.objectId, r.objectExt)] ??= dictionary());
    (rights[r.rightName] ??= []).push(r.tag);
  }
  return out;
}

/** GET …/rights/on/…: subject key → rights, each once whatever its tags (rows in subject, right order). */
export function toRightsOn(rows: TGrantRow[]): Record<string, string[]> {
  const out = dictionary<string[]>();
  for (const r of rows) {
    const rights = (out[partyKey(r.subjectType, r.subjectId)] ??= []);
    if (rights[rights.length - 1] !== r.rightName) rights.push(r.rightName);
  }
  return out;
}
