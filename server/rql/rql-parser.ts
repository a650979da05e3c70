import { RqlError } from "./rql-error.ts";
import { readRqlSyntax, type TRqlNode } from "./rql-syntax.ts";
import { decodeArg, parseValue } from "./rql-values.ts";
import type { TRqlCompareOp, TRqlField, TRqlFilter, TRqlQuery, TRqlSort, TRqlValue } from "./rql.types.ts";

/** limit(count[,offset]): the count is bounded so one request cannot ask for a whole table. */
export const RQL_MAX_LIMIT = 1000;
// The largest offset PostgreSQL's OFFSET takes as a plain integer parameter without surprises.
const MAX_OFFSET = 2_147_483_647;

const COMPARE_OPS: readonly string[] = ["eq", "ne", "lt", "le", "gt", "ge"] satisfies TRqlCompareOp[];
const OPERATORS = ["and", "or", ...COMPARE_OPS, "like", "in", "limit", "sort"];

type TCall = Extract<TRqlNode, { kind: "call" }>;

function expectArgs(call: TCall, count: number, shape: string): void {
  if (call.args.length !== count) throw new RqlError(call.pos, `${call.name}() takes ${count} arguments (${shape}), got ${call.args.length}`);
}

function text(node: TRqlNode, what: string): Extract<TRqlNode, { kind: "text" }> {
  if (node.kind !== "text") throw new RqlError(node.pos, `expected ${what}, found ${node.kind === "call" ? `${node.name}(…)` : "a list"}`);
  return node;
}

function toField(node: TRqlNode): TRqlField {
  const t = text(node, "a field name");
  if (t.raw === "") throw new RqlError(t.pos, "missing field name");
  return { name: decodeArg(t.raw, t.pos), pos: t.pos };
}

function toValue(node: TRqlNode): TRqlValue {
  const t = text(node, "a value");
  return parseValue(t.raw, t.pos);
}

function toFilter(node: TRqlNode): TRqlFilter {
  if (node.kind !== "call") throw new RqlError(node.pos, node.kind === "list" ? "expected an operator, found a list" : "expected an operator such as eq(field,value)");
  const { name, args, pos } = node;
  if (name === "and" || name === "or") {
    if (!args.length) throw new RqlError(pos, `${name}() needs at least one term`);
    return { op: name, args: args.map(toFilter), pos };
  }
  if (COMPARE_OPS.includes(name)) {
    expectArgs(node, 2, "field, value");
    return { op: name as TRqlCompareOp, field: toField(args[0]!), value: toValue(args[1]!), pos };
  }
  if (name === "like") {
    expectArgs(node, 2, "field, pattern");
    return { op: "like", field: toField(args[0]!), pattern: toValue(args[1]!), pos };
  }
  if (name === "in") {
    expectArgs(node, 2, "field, (value,…)");
    const list = args[1]!;
    if (list.kind !== "list") throw new RqlError(list.pos, "in() takes its values as a list: in(field,(a,b))");
    return { op: "in", field: toField(args[0]!), values: list.items.map(toValue), pos };
  }
  if (name === "limit" || name === "sort") throw new RqlError(pos, `${name}() is allowed only at the top level`);
  throw new RqlError(pos, `unknown operator "${name}"; known: ${OPERATORS.join(", ")}`);
}

function toCount(node: TRqlNode, what: string, min: number, max: number): number {
  const t = text(node, what);
  const n = /^\d{1,10}$/.test(t.raw) ? Number(t.raw) : NaN;
  if (!(n >= min && n <= max)) throw new RqlError(t.pos, `${what} must be an integer from ${min} to ${max}`);
  return n;
}

function toLimit(call: TCall): NonNullable<TRqlQuery["limit"]> {
  if (call.args.length < 1 || call.args.length > 2) throw new RqlError(call.pos, `limit() takes 1 or 2 arguments (count[, offset]), got ${call.args.length}`);
  const count = toCount(call.args[0]!, "the limit count", 1, RQL_MAX_LIMIT);
  const offset = call.args[1] ? toCount(call.args[1], "the limit offset", 0, MAX_OFFSET) : 0;
  return { count, offset, pos: call.pos };
}

/** sort(+a,-b,c): a leading space counts as "+", because a "+" left unencoded in a query string arrives as one. */
function toSort(call: TCall): TRqlSort[] {
  if (!call.args.length) throw new RqlError(call.pos, "sort() needs at least one field");
  return call.args.map((arg) => {
    const t = text(arg, "a field to sort by, such as +name or -name");
    const sign = t.raw[0];
    const signed = sign === "+" || sign === "-" || sign === " ";
    const field = toField({ kind: "text", raw: signed ? t.raw.slice(1) : t.raw, pos: signed ? t.pos + 1 : t.pos });
    return { field, dir: sign === "-" ? "desc" : "asc" };
  });
}

/**
 * Parses an RQL string into a TRqlQuery or throws RqlError with the offset of the first problem.
 * Top-level terms are joined by AND; limit() and sort() may each appear once, at the top level.
 */
export function parseRql(rql: string): TRqlQuery {
  const query: TRqlQuery = { sort: [] };
  const filters: TRqlFilter[] = [];
  let sorted = false;
  for (const node of readRqlSyntax(rql)) {
    if (node.kind === "call" && node.name === "limit") {
      if (query.limit) throw new RqlError(node.pos, "limit() given twice");
      query.limit = toLimit(node);
    } else if (node.kind === "call" && node.name === "sort") {
      if (sorted) throw new RqlError(node.pos, "sort() given twice");
      query.sort = toSort(node);
      sorted = true;
    } else filters.push(toFilter(node));
  }
  if (filters.length === 1) query.filter = filters[0];
  else if (filters.length > 1) query.filter = { op: "and", args: filters, pos: 0 };
  return query;
}
