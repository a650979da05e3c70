import { describe, expect, it } from "vitest";
import { sql } from "../db/sql.ts";
import { compileRql, type TRqlFields } from "./rql-compile.ts";
import { parseRql } from "./rql-parser.ts";
import { encodeRqlValue, expectRqlError, HOSTILE } from "../../test/support/rql.ts";

const FIELDS: TRqlFields = {
  name: { sql: sql`t.attrs->>'name'`, type: "string" },
  age: { sql: sql`t.attrs->>'age'`, type: "number" },
  active: { sql: sql`t.attrs->>'active'`, type: "boolean" },
  born: { sql: sql`t.attrs->>'born'`, type: "date" },
  roles: { sql: sql`t.attrs->'roles'`, type: "string_list" },
};

const compile = (rql: string) => compileRql(parseRql(rql), FIELDS);
const where = (rql: string) => {
  const w = compile(rql).where;
  return { text: w.text, values: w.values };
};

const failure = (rql: string) => expectRqlError(() => compile(rql), rql);

describe("compileRql", () => {
  it("binds every value and writes only its own SQL around the caller's field expressions", () => {
    expect(where("eq(name,acme)")).toEqual({ text: "(t.attrs->>'name') = CAST($1 AS text)", values: ["acme"] });
    expect(where("ne(name,acme)")).toEqual({ text: "(t.attrs->>'name') IS DISTINCT FROM CAST($1 AS text)", values: ["acme"] });
    expect(where("eq(name,01234)").values).toEqual(["01234"]);
    expect(where("eq(name,string:null)").values).toEqual(["null"]);
    expect(where("eq(name,null)")).toEqual({ text: "(t.attrs->>'name') IS NULL", values: [] });
    expect(where("ne(name,null)")).toEqual({ text: "NOT ((t.attrs->>'name') IS NULL)", values: [] });
    expect(where("gt(age,40)")).toEqual({
      text: "(CASE WHEN (t.attrs->>'age')::text ~ '^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]{1,3})?$' THEN ((t.attrs->>'age')::text)::numeric END) > CAST($1 AS numeric)",
      values: ["40"],
    });
    expect(where("eq(active,true)")).toEqual({ text: "((t.attrs->>'active')::text) = CAST($1 AS text)", values: ["true"] });
    expect(where("le(born,2024-02-29)").values).toEqual(["2024-02-29"]);
    expect(where("eq(roles,admin)")).toEqual({ text: "(t.attrs->'roles') @> jsonb_build_array(CAST($1 AS text))", values: ["admin"] });
    expect(where("in(age,(1,2.5))").text).toMatch(/ IN \(CAST\(\$1 AS numeric\),CAST\(\$2 AS numeric\)\)$/);
    expect(where("in(roles,(a,b))").values).toEqual(["a", "b"]);
    expect(where("or(eq(name,a),and(eq(age,1),ne(roles,x)))").text).toMatch(/^\(\(t\.attrs->>'name'\) = CAST\(\$1 AS text\) OR \(.* AND NOT COALESCE\(.*\$3.*, false\)\)\)$/);
    expect(where("")).toEqual({ text: "TRUE", values: [] });
  });

  it("turns a like pattern's * into % and escapes the characters LIKE would read", () => {
    expect(where("like(name,a%25_!*b*)")).toEqual({ text: "(t.attrs->>'name') ILIKE CAST($1 AS text) ESCAPE '!'", values: ["a!%!_!!%b%"] });
    expect(where("like(roles,adm*)").values).toEqual(["adm%"]);
  });

  it("orders by the fields named, missing values last, and passes limit and offset on", () => {
    const c = compile("sort(-age,+name)&limit(10,20)");
    expect(c.orderBy?.text).toMatch(/::numeric END\) DESC NULLS LAST, \(t\.attrs->>'name'\) ASC NULLS LAST$/);
    expect([c.limit, c.offset]).toEqual([10, 20]);
    const plain = compile("eq(name,a)");
    expect(plain.orderBy).toBeUndefined();
    expect("limit" in plain || "offset" in plain).toBe(false);
  });

  it("refuses unknown fields (prototype names too) and values of the wrong type, at their position", () => {
    const cases: [string, number, RegExp][] = [
      ["eq(nmae,x)", 3, /unknown field "nmae"; known: name, age, active, born, roles/],
      ["eq(__proto__,x)", 3, /unknown field/],
      ["eq(constructor,x)", 3, /unknown field/],
      ["sort(+toString)", 6, /unknown field/],
      ["eq(age,abc)", 7, /"age" is a number field; "abc" is not a number/],
      ["eq(age,string:5)", 14, /"age" is a number field; the value is a string/],
      ["eq(name,number:5)", 15, /"name" is a string field; the value is a number/],
      ["eq(active,yes)", 10, /not a boolean/],
      ["eq(born,2023-02-29)", 8, /not a date \(YYYY-MM-DD\)/],
      ["eq(born,date:2024-02-30)", 13, /not a date/],
      ["lt(active,true)", 0, /lt\(\) does not apply to boolean field "active"/],
      ["gt(roles,a)", 0, /does not apply to string_list field "roles"/],
      ["lt(name,null)", 0, /does not apply to null/],
      ["like(age,1*)", 0, /like\(\) does not apply to number field "age"/],
      ["like(name,number:5)", 17, /like\(\) takes a string pattern/],
      ["in(name,(a,null))", 11, /in\(\) takes no null/],
      ["sort(-roles)", 6, /cannot sort by the list field "roles"/],
      ["and(eq(name,a),or(eq(age,x)))", 25, /not a number/],
    ];
    for (const [rql, position, reason] of cases) {
      const e = failure(rql);
      expect([rql, e.position]).toEqual([rql, position]);
      expect(e.reason).toMatch(reason);
    }
  });

  it("keeps hostile text out of the SQL: the statement is the same as for a harmless value", () => {
    const harmless = { eq: where("eq(name,x)").text, like: where("like(name,x)").text, in: where("in(name,(x,y))").text, list: where("eq(roles,x)").text };
    for (const h of HOSTILE) {
      const v = encodeRqlValue(h);
      expect(where(`eq(name,${v})`)).toEqual({ text: harmless.eq, values: [h] });
      expect(where(`like(name,${v})`).text).toBe(harmless.like);
      expect(where(`in(name,(${v},string:${v}))`)).toEqual({ text: harmless.in, values: [h, h] });
      expect(where(`eq(roles,${v})`)).toEqual({ text: harmless.list, values: [h] });
    }
  });
});

describe("compileRql with jsonb fields (containment)", () => {
  const J: TRqlFields = {
    name: { sql: sql`t.attrs->>'name'`, type: "string", jsonb: { column: sql`t.attrs`, key: "name" } },
    active: { sql: sql`t.attrs->>'active'`, type: "boolean", jsonb: { column: sql`t.attrs`, key: "active" } },
    roles: { sql: sql`t.attrs->'roles'`, type: "string_list", jsonb: { column: sql`t.attrs`, key: "roles" } },
    size: { sql: sql`t.attrs->>'size'`, type: "number", jsonb: { column: sql`t.attrs`, key: "size" } },
  };
  const w = (rql: string) => {
    const c = compileRql(parseRql(rql), J).where;
    return { text: c.text, values: c.values };
  };

  it("compiles eq and in on strings, booleans and lists to containment a GIN index serves, the value a bound JSON text", () => {
    expect(w("eq(name,acme)")).toEqual({ text: "(t.attrs) @> CAST($1 AS jsonb)", values: ['{"name":"acme"}'] });
    expect(w(`eq(name,${encodeRqlValue('a"}, "x": {')})`).values).toEqual([JSON.stringify({ name: 'a"}, "x": {' })]);
    expect(w("eq(active,true)").values).toEqual(['{"active":true}']);
    expect(w("eq(roles,admin)").values).toEqual(['{"roles":["admin"]}']);
    expect(w("in(name,(a,b))")).toEqual({ text: "((t.attrs) @> CAST($1 AS jsonb) OR (t.attrs) @> CAST($2 AS jsonb))", values: ['{"name":"a"}', '{"name":"b"}'] });
    expect(w("eq(name,null)").text).toBe("(t.attrs->>'name') IS NULL");
    expect(w("ne(name,acme)").text).toContain("IS DISTINCT FROM");
    expect(w("eq(size,10)").text).toContain("numeric");
    expect(expectRqlError(() => w("eq(active,maybe)"), "maybe").reason).toMatch(/not a boolean/);
  });
});
