import { joinSql, sql, type TSql } from "../db/sql.ts";
import { RqlError } from "./rql-error.ts";
import { isRqlDate, isRqlNumber } from "./rql-values.ts";
import type { TRqlCompareOp, TRqlField, TRqlFilter, TRqlQuery, TRqlValue } from "./rql.types.ts";

export type TRqlFieldType = "string" | "number" | "boolean" | "date" | "string_list";

/**
 * One field a query may filter and sort by. `sql` is an expression the caller writes from trusted text
 * (never from the request): for string, number, boolean and date fields one that yields text or casts
 * to it (g.attrs->>'name', a column); for string_list a jsonb array (g.attrs->'roles').
 */
export type TRqlFieldDef = {
  sql: TSql;
  type: TRqlFieldType;
  /**
   * The field is the top-level key `key` of the jsonb `column` and every stored value has the JSON type
   * of the field (validated writes). Then eq and in on string, boolean and string_list fields compile to
   * containment (`column @> '{"key": value}'`), which a GIN index on the column serves; `->>` comparisons
   * cannot use one. Leave it out where stored types may differ (a name with several types).
   */
  jsonb?: { column: TSql; key: string };
};
export type TRqlFields = Record<string, TRqlFieldDef>;

/** `orderBy` is a list of terms without the ORDER BY keyword, so the caller can append a unique tiebreaker for stable pages. */
export type TCompiledRql = { where: TSql; orderBy?: TSql; limit?: number; offset?: number };

type TBound = { name: string; def: TRqlFieldDef };

const OPERATOR_SQL: Record<Exclude<TRqlCompareOp, "ne">, TSql> = { eq: sql`=`, lt: sql`<`, le: sql`<=`, gt: sql`>`, ge: sql`>=` };

function fieldOf(fields: TRqlFields, f: TRqlField): TBound {
  if (!Object.hasOwn(fields, f.name)) throw new RqlError(f.pos, `unknown field "${f.name}"; known: ${Object.keys(fields).join(", ")}`);
  return { name: f.name, def: fields[f.name]! };
}

/**
 * The field as a comparable scalar. Stored attributes are JSON and may hold anything: numbers and dates
 * are guarded by a pattern first, so a stored "abc" reads as NULL (matches nothing) instead of failing
 * the cast and the whole query. Dates are YYYY-MM-DD, which compare correctly as text.
 */
function scalar({ def }: TBound): TSql {
  switch (def.type) {
    case "number":
      return sql`(CASE WHEN (${def.sql})::text ~ '^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]{1,3})?$' THEN ((${def.sql})::text)::numeric END)`;
    case "date":
      return sql`(CASE WHEN (${def.sql})::text ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN (${def.sql})::text END)`;
    case "boolean":
      return sql`((${def.sql})::text)`;
    default:
      return sql`(${def.sql})`;
  }
}

/** The value as a bound parameter of the field's type; an untyped value is read by the field's type. */
function operand({ name, def }: TBound, v: TRqlValue): TSql {
  const want = def.type === "string_list" ? "string" : def.type;
  if (v.typed && v.type !== want) throw new RqlError(v.pos, `"${name}" is a ${def.type} field; the value is a ${v.type}`);
  const ok = want === "number" ? isRqlNumber(v.text) : want === "date" ? isRqlDate(v.text) : want === "boolean" ? v.text === "true" || v.text === "false" : true;
  if (!ok) throw new RqlError(v.pos, `"${name}" is a ${def.type} field; "${v.text}" is not a ${want}${want === "date" ? " (YYYY-MM-DD)" : ""}`);
  return want === "number" ? sql`CAST(${v.text} AS numeric)` : sql`CAST(${v.text} AS text)`;
}

const isNull = (v: TRqlValue) => v.type === "null" && !v.typed;

const CONTAINABLE: readonly TRqlFieldType[] = ["string", "boolean", "string_list"];

/** eq as containment in the field's jsonb column, when the field allows it (see TRqlFieldDef.jsonb). */
function contained(field: TBound, value: TRqlValue): TSql | undefined {
  const j = field.def.jsonb;
  if (!j || !CONTAINABLE.includes(field.def.type)) return undefined;
  operand(field, value); // the same type checks and errors as a bound operand
  const v = field.def.type === "boolean" ? value.text === "true" : field.def.type === "string_list" ? [value.text] : value.text;
  return sql`(${j.column}) @> CAST(${JSON.stringify({ [j.key]: v })} AS jsonb)`;
}

function listContains(field: TBound, value: TRqlValue): TSql {
  return contained(field, value) ?? sql`(${field.def.sql}) @> jsonb_build_array(${operand(field, value)})`;
}

function compare(op: TRqlCompareOp, field: TBound, value: TRqlValue, pos: number): TSql {
  const list = field.def.type === "string_list";
  if (op !== "eq" && op !== "ne" && (list || field.def.type === "boolean" || isNull(value))) {
    throw new RqlError(pos, `${op}() does not apply to ${isNull(value) ? "null" : `${field.def.type} field "${field.name}"`}`);
  }
  // A missing attribute is "not equal" to any value: SQL's NULL would leave it out of ne() as well as eq().
  if (isNull(value)) {
    const missing = list ? sql`COALESCE(jsonb_typeof(${field.def.sql}), 'null') = 'null'` : sql`(${field.def.sql}) IS NULL`;
    return op === "eq" ? missing : sql`NOT (${missing})`;
  }
  if (list) return op === "eq" ? listContains(field, value) : sql`NOT COALESCE(${listContains(field, value)}, false)`;
  if (op === "ne") return sql`${scalar(field)} IS DISTINCT FROM ${operand(field, value)}`;
  const asContainment = op === "eq" ? contained(field, value) : undefined;
  if (asContainment) return asContainment;
  return sql`${scalar(field)} ${OPERATOR_SQL[op]} ${operand(field, value)}`;
}

/** like: `*` is the only wildcard; %, _ and the escape character itself are literal. */
function likePattern(v: TRqlValue): string {
  if (v.typed && v.type !== "string") throw new RqlError(v.pos, `like() takes a string pattern; the value is a ${v.type}`);
  return v.text.replace(/[!%_]/g, "!$&").replace(/\*/g, "%");
}

function like(field: TBound, pattern: TRqlValue, pos: number): TSql {
  const p = likePattern(pattern);
  if (field.def.type === "string") return sql`${scalar(field)} ILIKE CAST(${p} AS text) ESCAPE '!'`;
  if (field.def.type !== "string_list") throw new RqlError(pos, `like() does not apply to ${field.def.type} field "${field.name}"`);
  const L = field.def.sql;
  return sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(${L}) = 'array' THEN ${L} END) AS rql_e(v) WHERE rql_e.v ILIKE CAST(${p} AS text) ESCAPE '!')`;
}

function within(field: TBound, values: TRqlValue[]): TSql {
  const nul = values.find(isNull);
  if (nul) throw new RqlError(nul.pos, "in() takes no null; use or(eq(field,null),in(field,(…)))");
  if (field.def.type === "string_list") return sql`(${joinSql(values.map((v) => listContains(field, v)), " OR ")})`;
  const containments = values.map((v) => contained(field, v));
  if (containments.every((c) => c !== undefined)) return sql`(${joinSql(containments, " OR ")})`;
  return sql`${scalar(field)} IN (${joinSql(values.map((v) => operand(field, v)))})`;
}

function compileFilter(f: TRqlFilter, fields: TRqlFields): TSql {
  switch (f.op) {
    case "and":
    case "or":
      return sql`(${joinSql(f.args.map((a) => compileFilter(a, fields)), f.op === "and" ? " AND " : " OR ")})`;
    case "like":
      return like(fieldOf(fields, f.field), f.pattern, f.pos);
    case "in":
      return within(fieldOf(fields, f.field), f.values);
    default:
      return compare(f.op, fieldOf(fields, f.field), f.value, f.pos);
  }
}

function compileSort(query: TRqlQuery, fields: TRqlFields): TSql | undefined {
  if (!query.sort.length) return undefined;
  const terms = query.sort.map(({ field, dir }) => {
    const bound = fieldOf(fields, field);
    if (bound.def.type === "string_list") throw new RqlError(field.pos, `cannot sort by the list field "${field.name}"`);
    // Missing values go last in either direction: they are the least interesting rows of a listing.
    return dir === "asc" ? sql`${scalar(bound)} ASC NULLS LAST` : sql`${scalar(bound)} DESC NULLS LAST`;
  });
  return joinSql(terms, ", ");
}

/**
 * Turns a parsed query into SQL fragments over the given fields. Every value from the request is a
 * bound parameter; the SQL text comes only from this file and from the caller's field expressions.
 */
export function compileRql(query: TRqlQuery, fields: TRqlFields): TCompiledRql {
  const where = query.filter ? compileFilter(query.filter, fields) : sql`TRUE`;
  const orderBy = compileSort(query, fields);
  return { where, orderBy, ...(query.limit ? { limit: query.limit.count, offset: query.limit.offset } : {}) };
}
