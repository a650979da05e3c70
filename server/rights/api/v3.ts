import { partyKey } from "../parties.ts";
import type { TGrantRow } from "../rights.repository.ts";

/** GET …/rights/of/…: object key → right → tags (rows come in object, right, tag order). */
export function toRightsOf(rows: TGrantRow[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const r of rows) {
    const rights = (out[partyKey(r.objectType, r.objectId, r.objectExt)] ??= {});
    (rights[r.rightName] ??= []).push(r.tag);
  }
  return out;
}

/** GET …/rights/on/…: subject key → rights, each once whatever its tags (rows in subject, right order). */
export function toRightsOn(rows: TGrantRow[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of rows) {
    const rights = (out[partyKey(r.subjectType, r.subjectId)] ??= []);
    if (rights[rights.length - 1] !== r.rightName) rights.push(r.rightName);
  }
  return out;
}
