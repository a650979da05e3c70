import type { TAttributeDefView } from "./types.ts";

/** What a form holds for one attribute, whatever its type: the text typed and, for contacts, the flag. */
export type TDraft = { text: string; vrf: boolean };
export type TDrafts = Record<string, TDraft>;

const EMPTY: TDraft = { text: "", vrf: false };

/** `locked` has its own buttons (lock, unlock), so it is no field of the attribute forms. */
export function editableDefs(catalog: TAttributeDefView[]): TAttributeDefView[] {
  return catalog.filter((d) => d.name !== "locked");
}

export function isContact(def: TAttributeDefView): boolean {
  return def.type === "email" || def.type === "phone";
}

function draftOf(def: TAttributeDefView, stored: unknown): TDraft {
  if (stored === undefined || stored === null) return EMPTY;
  if (isContact(def) && typeof stored === "object" && !Array.isArray(stored)) {
    const c = stored as { value?: unknown; vrf?: unknown };
    return { text: String(c.value ?? ""), vrf: c.vrf === true };
  }
  if (Array.isArray(stored)) return { text: stored.join("\n"), vrf: false };
  return { text: String(stored), vrf: false };
}

export function draftsOf(defs: TAttributeDefView[], attributes: Record<string, unknown>): TDrafts {
  return Object.fromEntries(defs.map((d) => [d.name, draftOf(d, attributes[d.name])]));
}

/**
 * The value to send for a draft; undefined when the field is empty. Text that is not a number is
 * sent as typed so that the server's own check explains what is wrong, next to the field.
 */
export function valueOf(def: TAttributeDefView, draft: TDraft = EMPTY): unknown {
  const text = draft.text;
  if (text.trim() === "") return undefined;
  switch (def.type) {
    case "boolean":
      return text === "true";
    case "number": {
      const n = Number(text.trim().replace(",", "."));
      return Number.isFinite(n) ? n : text;
    }
    case "string_list":
      return text
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter(Boolean);
    case "email":
    case "phone":
      return { value: text.trim(), vrf: draft.vrf };
    default:
      return def.type === "date" ? text.trim() : text;
  }
}

/** A new account's attributes: every filled field. */
export function newAttributesOf(defs: TAttributeDefView[], drafts: TDrafts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const v = valueOf(def, drafts[def.name]);
    if (v !== undefined) out[def.name] = v;
  }
  return out;
}

/**
 * What changed between the stored attributes and the form: a changed field's value, `null` for a
 * cleared one. Unchanged fields are not sent, so an unmodifiable attribute is never sent back.
 */
export function changesOf(defs: TAttributeDefView[], stored: Record<string, unknown>, drafts: TDrafts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of defs) {
    const before = valueOf(def, draftOf(def, stored[def.name]));
    const after = valueOf(def, drafts[def.name]);
    if (JSON.stringify(before) !== JSON.stringify(after)) out[def.name] = after === undefined ? null : after;
  }
  return out;
}
