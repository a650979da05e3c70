import { parseContact, parseValue, indexKeys, type TAttrValue } from "../attributes/attribute-values.ts";
import { CONTACT_TYPES } from "../attributes/attributes.schemas.ts";
import type { TCatalog } from "../attributes/attributes.service.ts";
import type { TInputItem } from "../errors/app-error.ts";
import type { TIndexRow } from "./users.repository.ts";

/** A contact change that waits for a code before it applies (v3 with vrf=false). */
export type TPendingContact = { attr: string; value: string; type: "phone" | "email" };

export type TChangePlan = {
  set: Map<string, TAttrValue>;
  remove: Set<string>;
  pending: TPendingContact[];
};

export type TPlanOptions = {
  /** How contact flags are spelled: v3 `vrf`, registration `verified`, v1 and the console bare strings. */
  contactFlag: "vrf" | "verified" | "bare";
  /** v3 and registration: an unverified contact waits for its code instead of being stored. */
  confirmUnverified: boolean;
  /** The client's selection for the scope; null: every attribute. */
  allowed: Set<string> | null;
  /** A new account: unmodifiable attributes may be given, required ones must be. */
  creating: boolean;
};

const item = (pos: string, desc: string, error = "wrong_value"): TInputItem => ({ error, desc, pos });

function planOne(catalog: TCatalog, name: string, raw: unknown, opts: TPlanOptions, plan: TChangePlan): TInputItem | undefined {
  const def = catalog.byName.get(name);
  if (!def || (opts.allowed && !opts.allowed.has(name))) return item(name, def ? "this attribute is not available to the client" : "unknown attribute");
  if (def.unmodifiable && !opts.creating) return item(name, "this attribute cannot be changed");
  if (raw === null) {
    if (def.required) return item(name, "a required attribute cannot be removed");
    plan.remove.add(name);
    return undefined;
  }
  if (CONTACT_TYPES.includes(def.type)) {
    const c = parseContact(def, name, raw, opts.contactFlag);
    if (!c.ok) return c.item;
    if (opts.confirmUnverified && !c.value.vrf) plan.pending.push({ attr: name, value: c.value.value, type: def.type as "phone" | "email" });
    else plan.set.set(name, c.value);
    return undefined;
  }
  const v = parseValue(def, name, raw);
  if (!v.ok) return v.item;
  plan.set.set(name, v.value);
  return undefined;
}

/**
 * Checks a change (or a new account's attributes) against the catalog and the client's selection.
 * Every problem is reported at once, each with the attribute it concerns as `pos`.
 */
export function planChanges(catalog: TCatalog, input: Record<string, unknown>, opts: TPlanOptions): { plan: TChangePlan; items: TInputItem[] } {
  const plan: TChangePlan = { set: new Map(), remove: new Set(), pending: [] };
  const items: TInputItem[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const problem = planOne(catalog, name, raw, opts, plan);
    if (problem) items.push(problem);
  }
  if (opts.creating) {
    for (const def of catalog.defs) {
      const given = plan.set.has(def.name) || plan.pending.some((p) => p.attr === def.name);
      if (def.required && def.name !== "sub" && !given) items.push(item(def.name, "a required attribute is missing"));
    }
  }
  return { plan, items };
}

/** The attributes after the plan applies: set values replace, removals drop. */
export function applyPlan(current: Record<string, TAttrValue>, plan: TChangePlan): Record<string, TAttrValue> {
  const next = { ...current };
  for (const [k, v] of plan.set) next[k] = v;
  for (const k of plan.remove) delete next[k];
  return next;
}

/** Rows of the value index for searchable and unique attributes. */
export function indexRows(catalog: TCatalog, attrs: Record<string, TAttrValue>): TIndexRow[] {
  const rows: TIndexRow[] = [];
  for (const def of catalog.defs) {
    const value = attrs[def.name];
    if (value === undefined || !(def.searchable || def.unique)) continue;
    for (const key of indexKeys(value)) rows.push({ attr: def.name, value: key.slice(0, 1000), isUnique: def.unique });
  }
  return rows;
}

/** Splits `sub` and `locked`, which live in their own columns, from the attribute document. */
export function splitColumns(attrs: Record<string, TAttrValue>): { doc: Record<string, TAttrValue>; locked: boolean } {
  const { sub: _sub, locked, ...doc } = attrs;
  return { doc, locked: locked === true };
}
