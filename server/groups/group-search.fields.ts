import type { TCatalog } from "../attributes/attributes.service.ts";
import { sql, type TSql } from "../db/sql.ts";
import type { TRqlFieldType, TRqlFields } from "../rql/rql-compile.ts";
import type { TGroupProfile } from "./groups.schemas.ts";

/*
 * What a group search and a member filter may name. Attribute names travel as bound parameters
 * (`attrs ->> $n`), so even a name that slipped past the schema's rules could not change the SQL.
 * The aliases `g` (groups) and `u` (users) are group-search.repository.ts's.
 */

const GROUP_COLUMNS: TRqlFields = {
  id: { sql: sql`g.id`, type: "string" },
  profile: { sql: sql`g.profile`, type: "string" },
};

function attrField(column: TSql, name: string, type: TRqlFieldType, typedStore: boolean): TRqlFields[string] {
  const expr = type === "string_list" ? sql`${column} -> CAST(${name} AS text)` : sql`${column} ->> CAST(${name} AS text)`;
  return { sql: expr, type, ...(typedStore ? { jsonb: { column, key: name } } : {}) };
}

/**
 * `id`, `profile` and the attributes of the profiles' schemas. Across profiles a name declared with
 * different types is searched as a string (its stored text: 10 and "10" both read "10"), since no one
 * type fits every group; its eq then cannot be containment, whose JSON types would differ.
 */
export function groupFields(profiles: TGroupProfile[]): TRqlFields {
  const types = new Map<string, Set<TRqlFieldType>>();
  for (const p of profiles) for (const a of p.attributes) types.set(a.name, (types.get(a.name) ?? new Set()).add(a.type));
  const fields: TRqlFields = { ...GROUP_COLUMNS };
  for (const [name, set] of types) {
    const [only] = set;
    fields[name] = set.size === 1 ? attrField(sql`g.attrs`, name, only!, true) : attrField(sql`g.attrs`, name, "string", false);
  }
  return fields;
}

/**
 * `sub` and the catalog's account attributes this client may read (a filter on a hidden attribute
 * would reveal its values one guess at a time). Contacts are searched by their value; `locked` is a column.
 */
export function memberFields(catalog: TCatalog, readable: Set<string> | null): TRqlFields {
  const fields: TRqlFields = { sub: { sql: sql`u.id`, type: "string" } };
  for (const d of catalog.defs) {
    if (d.name === "sub" || (readable && !readable.has(d.name))) continue;
    if (d.name === "locked") fields.locked = { sql: sql`u.locked`, type: "boolean" };
    else if (d.type === "phone" || d.type === "email") fields[d.name] = { sql: sql`u.attrs -> CAST(${d.name} AS text) ->> 'value'`, type: "string" };
    else fields[d.name] = attrField(sql`u.attrs`, d.name, d.type, false);
  }
  return fields;
}
