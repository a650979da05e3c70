import { parseValue } from "../attributes/attribute-values.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import { asAttributeDef } from "./group-attr-def.ts";
import type { TGroupAttrDef, TGroupAttrValue } from "./groups.schemas.ts";

/**
 * The attributes of a group checked against its profile's schema: every given one must be in the
 * schema and of its type, every required one present. `null` is the same as leaving it out. The
 * items name the attribute (pos = its name); all problems are reported at once.
 */
export function checkGroupAttrs(schema: TGroupAttrDef[], input: Record<string, unknown>): Record<string, TGroupAttrValue> {
  const items: TInputItem[] = [];
  const out: Record<string, TGroupAttrValue> = {};
  const defs = new Map(schema.map((d) => [d.name, d]));
  for (const [name, raw] of Object.entries(input)) {
    const def = defs.get(name);
    if (!def) {
      items.push({ error: "wrong_value", desc: "not an attribute of this group profile", pos: name });
      continue;
    }
    if (raw === null) continue;
    const checked = parseValue(asAttributeDef(def), name, raw);
    if (checked.ok) out[name] = checked.value as TGroupAttrValue;
    else items.push(checked.item);
  }
  for (const def of schema) {
    if (def.required && out[def.name] === undefined && !items.some((i) => i.pos === def.name)) {
      items.push({ error: "wrong_value", desc: "a required attribute is missing", pos: def.name });
    }
  }
  if (items.length) throw new AppError("request.invalid_values", { items });
  return out;
}

/**
 * The values of the profile's unique attributes (strings, dates, numbers: the types that may be
 * unique). The database compares them, so both sides are normalised by the same rules: text
 * case-insensitively through PostgreSQL's lower(), numbers as numerics (JavaScript prints 1e21 as
 * "1e+21", PostgreSQL as "1000000000000000000000").
 */
export function uniqueValues(schema: TGroupAttrDef[], attrs: Record<string, TGroupAttrValue>): TUniqueValue[] {
  return schema
    .filter((d) => d.unique && attrs[d.name] !== undefined)
    .map((d) => (d.type === "number" ? { name: d.name, number: Number(attrs[d.name]) } : { name: d.name, text: String(attrs[d.name]) }));
}

export type TUniqueValue = { name: string; text: string } | { name: string; number: number };
