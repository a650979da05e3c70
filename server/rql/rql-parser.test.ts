import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error.ts";
import { renderError } from "../errors/render.ts";
import { expectRqlError } from "../../test/support/rql.ts";
import { parseRql } from "./rql-parser.ts";
import { RQL_LIMITS } from "./rql-syntax.ts";

const at = (s: string, sub: string) => s.indexOf(sub);
const value = (type: string, v: unknown, text: string, pos: number, typed = false) => ({ type, value: v, text, typed, pos });

const failure = (rql: string) => expectRqlError(() => parseRql(rql), rql);

describe("parseRql: operators", () => {
  it("reads eq with its field and value, keeping positions", () => {
    expect(parseRql("eq(name,acme)")).toEqual({
      sort: [],
      filter: { op: "eq", field: { name: "name", pos: 3 }, value: value("string", "acme", "acme", 8), pos: 0 },
    });
  });

  it("joins top-level terms by & or , and takes limit and sort at the top", () => {
    const s = "eq(profile,orgs)&limit(10,20)&sort(-name,+id)";
    expect(parseRql(s)).toEqual({
      filter: { op: "eq", field: { name: "profile", pos: 3 }, value: value("string", "orgs", "orgs", 11), pos: 0 },
      limit: { count: 10, offset: 20, pos: at(s, "limit") },
      sort: [
        { field: { name: "name", pos: at(s, "name") }, dir: "desc" },
        { field: { name: "id", pos: at(s, "id)") }, dir: "asc" },
      ],
    });
    const q = parseRql("eq(a,1),ne(b,2),limit(5)");
    expect(q.filter).toMatchObject({ op: "and", args: [{ op: "eq" }, { op: "ne" }] });
    expect(q.limit).toEqual({ count: 5, offset: 0, pos: 16 });
  });

  it("reads every comparison, like and in", () => {
    for (const op of ["eq", "ne", "lt", "le", "gt", "ge"]) expect(parseRql(`${op}(a,1)`).filter).toMatchObject({ op, field: { name: "a" }, value: { type: "number", value: 1 } });
    expect(parseRql("like(name,*ac me*)").filter).toMatchObject({ op: "like", pattern: { text: "*ac me*" } });
    const s = "in(id,(1,x,string:2))";
    expect(parseRql(s).filter).toEqual({
      op: "in",
      field: { name: "id", pos: 3 },
      values: [value("number", 1, "1", 7), value("string", "x", "x", 9), value("string", "2", "2", at(s, "2)"), true)],
      pos: 0,
    });
  });

  it("nests and() and or() to the depth limit", () => {
    expect(parseRql("or(and(eq(a,1),eq(b,2)),ne(c,3))").filter).toMatchObject({
      op: "or",
      args: [{ op: "and", args: [{ op: "eq", pos: 7 }, { op: "eq", pos: 15 }], pos: 3 }, { op: "ne", pos: 24 }],
    });
    const deepest = "and(".repeat(RQL_LIMITS.maxDepth - 1) + "eq(a,b)" + ")".repeat(RQL_LIMITS.maxDepth - 1);
    expect(parseRql(deepest).filter).toMatchObject({ op: "and" });
  });

  it("reads an empty string as no filter", () => {
    expect(parseRql("")).toEqual({ sort: [] });
  });
});

describe("parseRql: values", () => {
  it("guesses untyped values: numbers, booleans, null, else strings (dates stay strings)", () => {
    const v = (s: string) => (parseRql(`eq(a,${s})`).filter as { value: unknown }).value;
    expect(v("42")).toEqual(value("number", 42, "42", 5));
    expect(v("-1.5e3")).toEqual(value("number", -1500, "-1.5e3", 5));
    expect(v("007")).toEqual(value("number", 7, "007", 5));
    expect(v("true")).toEqual(value("boolean", true, "true", 5));
    expect(v("false")).toEqual(value("boolean", false, "false", 5));
    expect(v("null")).toEqual(value("null", null, "null", 5));
    expect(v("2024-01-31")).toEqual(value("string", "2024-01-31", "2024-01-31", 5));
    expect(v("1e999")).toMatchObject({ type: "string" });
    expect(v("http://x.example/a?b=c")).toMatchObject({ type: "string", value: "http://x.example/a?b=c" });
  });

  it("honours string:, number:, boolean: and date: prefixes", () => {
    const v = (s: string) => (parseRql(`eq(a,${s})`).filter as { value: unknown }).value;
    expect(v("string:42")).toEqual(value("string", "42", "42", 12, true));
    expect(v("string:null")).toEqual(value("string", "null", "null", 12, true));
    expect(v("string:")).toEqual(value("string", "", "", 12, true));
    expect(v("string:number:5")).toMatchObject({ type: "string", value: "number:5" });
    expect(v("number:12.50")).toEqual(value("number", 12.5, "12.50", 12, true));
    expect(v("boolean:false")).toEqual(value("boolean", false, "false", 13, true));
    expect(v("date:2024-02-29")).toEqual(value("date", "2024-02-29", "2024-02-29", 10, true));
    expect(v("number%3A5")).toMatchObject({ type: "string", value: "number:5", typed: false });
  });

  it("percent-decodes each argument, so punctuation can be sent inside values and names", () => {
    const q = parseRql("eq(na%6De,a%2Cb%28c%29%26d%25)");
    expect(q.filter).toMatchObject({ field: { name: "name", pos: 3 }, value: { value: "a,b(c)&d%", pos: 10 } });
    expect(parseRql("eq(a,%D0%98%D0%B2%D0%B0%D0%BD%F0%9F%98%80)").filter).toMatchObject({ value: { value: "Иван😀" } });
    expect(parseRql("eq(a,string:%74rue)").filter).toMatchObject({ value: { type: "string", value: "true" } });
  });

  it("keeps spaces inside values, and reads a leading space in sort() as the + a query string turned into one", () => {
    expect(parseRql("eq(name,John Smith)").filter).toMatchObject({ value: { value: "John Smith" } });
    expect(parseRql("eq(name, x )").filter).toMatchObject({ value: { value: " x " } });
    expect(parseRql("sort( name,-id,age)").sort).toEqual([
      { field: { name: "name", pos: 6 }, dir: "asc" },
      { field: { name: "id", pos: 12 }, dir: "desc" },
      { field: { name: "age", pos: 15 }, dir: "asc" },
    ]);
  });
});

describe("parseRql: errors point at the problem", () => {
  const cases: [string, number, RegExp][] = [
    ["eq(a,b", 6, /missing "\)" to close the "\(" at position 2/],
    ["and(eq(a,b)", 11, /missing "\)" to close the "\(" at position 3/],
    ["eq(a,b))", 7, /unbalanced "\)"/],
    [")", 0, /unbalanced "\)"/],
    ["foo(a,b)", 0, /unknown operator "foo"/],
    ["and(eq(a,b),bar(c))", 12, /unknown operator "bar"/],
    ["eq(a)", 0, /eq\(\) takes 2 arguments \(field, value\), got 1/],
    ["eq(a,b,c)", 0, /got 3/],
    ["eq()", 0, /got 0/],
    ["eq(,b)", 3, /missing field name/],
    ["eq(a,)", 5, /missing value/],
    ["eq(a,number:x1)", 12, /"x1" is not a number/],
    ["eq(a,number:1e100)", 12, /not a number/],
    ["eq(a,boolean:yes)", 13, /not a boolean/],
    ["eq(a,date:2023-02-29)", 10, /not a date/],
    ["eq(a,date:2024-1-5)", 10, /not a date/],
    ["eq(a,b)x", 7, /unexpected "x" after a term/],
    ["eq(a,b) &limit(1)", 7, /unexpected a space after a term/],
    ["eq(a,b)&", 8, /expected a term after "&"/],
    ["eq(a,b),", 8, /expected a term after ","/],
    ["&eq(a,b)", 0, /expected an operator/],
    ["eq", 2, /expected "\(" after "eq"/],
    ["eq (a,b)", 2, /expected "\(" after "eq", found a space/],
    [" eq(a,b)", 0, /expected an operator .*found a space/],
    ["eq(a,b(c))", 5, /expected a value, found b\(…\)/],
    ["eq(a,b c(d))", 8, /"\(" inside a value must be written %28/],
    ["eq(a,b&c)", 6, /"&" joins top-level terms only/],
    ["eq((a),b)", 3, /expected a field name, found a list/],
    ["and()", 0, /and\(\) needs at least one term/],
    ["and(a)", 4, /expected an operator/],
    ["or(eq(a,b),(c))", 11, /found a list/],
    ["in(a,b)", 5, /in\(\) takes its values as a list/],
    ["in(a,(b,(c)))", 8, /a list holds values only/],
    ["in(a,(b,c)", 10, /missing "\)" to close the "\(" at position 2/],
    ["in(a,(b,c", 9, /missing "\)" to close the "\(" at position 5/],
    ["in(a,(b&c))", 7, /"&" joins top-level terms only/],
    ["in(a,(b,))", 8, /missing value/],
    ["limit(0)", 6, /from 1 to 1000/],
    ["limit(1001)", 6, /from 1 to 1000/],
    ["limit(10,-1)", 9, /offset must be an integer/],
    ["limit(ten)", 6, /count must be an integer/],
    ["limit()", 0, /takes 1 or 2 arguments/],
    ["limit(1,2,3)", 0, /takes 1 or 2 arguments/],
    ["limit(1)&limit(2)", 9, /limit\(\) given twice/],
    ["sort(a)&sort(b)", 8, /sort\(\) given twice/],
    ["and(limit(1))", 4, /only at the top level/],
    ["or(eq(a,b),sort(a))", 11, /only at the top level/],
    ["sort()", 0, /at least one field/],
    ["sort(+)", 6, /missing field name/],
    ["sort(-a,eq(b,c))", 8, /expected a field to sort by/],
    ["eq(a,%zz)", 5, /malformed percent escape/],
    ["eq(a,x%2)", 6, /malformed percent escape/],
    ["eq(a,%C0%AF)", 5, /malformed percent escape/],
    ["eq(a,string:ok%zz)", 14, /malformed percent escape/],
    ["eq(a,%00)", 5, /NUL/],
    ["eq(a,x\u0000)", 5, /NUL/],
    ["eq(a,%ED%A0%80)", 5, /malformed percent escape/],
    ["eq(a,x\uD800)", 5, /unpaired surrogate/],
    ["eq(a,b)) OR 1=1 --", 7, /unbalanced/],
    ["eq(name,x')) OR 1=1 --", 11, /unbalanced/],
    ["eq(name,x');DROP TABLE users;--", 11, /unexpected ";" after a term/],
  ];
  it.each(cases)("%j → position %i", (rql, position, reason) => {
    const e = failure(rql);
    expect(e.reason).toMatch(reason);
    expect(e.position).toBe(position);
  });

  it("refuses what is too long, too deep or too many, with a position and without exhausting the stack", () => {
    const long = failure(`eq(a,${"x".repeat(RQL_LIMITS.maxLength)})`);
    expect([long.position, long.reason]).toEqual([RQL_LIMITS.maxLength, `longer than ${RQL_LIMITS.maxLength} characters`]);
    expect(() => parseRql(`eq(a,${"x".repeat(RQL_LIMITS.maxLength - 6)})`)).not.toThrow();

    const deep = failure("and(".repeat(RQL_LIMITS.maxDepth) + "eq(a,b)" + ")".repeat(RQL_LIMITS.maxDepth));
    expect([deep.position, deep.reason]).toEqual([4 * RQL_LIMITS.maxDepth, `nested deeper than ${RQL_LIMITS.maxDepth} levels`]);
    expect(failure("or(".repeat(1300)).position).toBe(3 * RQL_LIMITS.maxDepth);

    const terms = Array.from({ length: RQL_LIMITS.maxTerms + 1 }, (_, i) => `eq(a,${i % 10})`);
    expect(() => parseRql(terms.slice(0, RQL_LIMITS.maxTerms).join("&"))).not.toThrow();
    const many = failure(terms.join("&"));
    expect([many.position, many.reason]).toEqual([8 * RQL_LIMITS.maxTerms, `more than ${RQL_LIMITS.maxTerms} terms`]);

    const values = Array.from({ length: RQL_LIMITS.maxListValues + 1 }, (_, i) => String(i % 10));
    expect(() => parseRql(`in(a,(${values.slice(0, RQL_LIMITS.maxListValues).join(",")}))`)).not.toThrow();
    expect(failure(`in(a,(${values.join(",")}))`).position).toBe(6 + 2 * RQL_LIMITS.maxListValues);
  });

  it("is an AppError rendered as 400 input_error with pos rql and params.position", async () => {
    const e = failure("eq(a,b");
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe("rql.malformed");
    const res = renderError(e, "v3", "req-1");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      type: "input_error",
      error: "wrong_values",
      errors: [{ type: "input_error", error: "wrong_value", desc: 'missing ")" to close the "(" at position 2 (at position 6)', pos: "rql", params: { position: 6 } }],
    });
  });
});
