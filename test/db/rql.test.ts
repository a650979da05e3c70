import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../../server/db/sql.ts";
import { compileRql, type TRqlFields } from "../../server/rql/rql-compile.ts";
import { parseRql } from "../../server/rql/rql-parser.ts";
import { encodeRqlValue, HOSTILE } from "../support/rql.ts";
import { countScratch, createScratchTable, searchScratch } from "../support/rql-scratch.repository.ts";
import { DB_KINDS, freshDatabase, type TTestDatabase } from "../support/test-db.ts";

type TAttrs = Record<string, unknown>;
const pad = (i: number) => String(i).padStart(2, "0");

// 50 rows shaped like group or user attributes, with the oddities stored JSON can hold: a number
// stored as text, a non-number where a number belongs, a non-date, a list that is a plain string,
// JSON null and missing attributes.
const SPECIAL: Record<number, TAttrs> = {
  1: { name: "acme" },
  2: { name: "ACME Corp" },
  3: { name: "acme-west" },
  4: { name: "100%_off" },
  5: { name: "100XYoff" },
  6: { name: HOSTILE[0] },
  7: { age: "abc" },
  8: { age: undefined },
  9: { age: "10" },
  10: { active: undefined },
  11: { born: "not a date" },
  13: { born: undefined },
  14: { roles: "admin" },
  15: { roles: undefined },
  16: { roles: [] },
  17: { city: undefined },
};

function attrsOf(i: number): TAttrs {
  const base: TAttrs = {
    name: `n${pad(i)}`,
    age: i,
    active: i % 2 === 0,
    born: `2000-01-${pad((i % 28) + 1)}`,
    roles: i % 3 === 0 ? ["admin", "user"] : ["user"],
    city: i % 5 === 0 ? null : `c${i % 4}`,
  };
  return JSON.parse(JSON.stringify({ ...base, ...SPECIAL[i] })) as TAttrs;
}

const dayOf = (i: number) => `2000-${pad(Math.ceil(i / 28))}-${pad(((i - 1) % 28) + 1)}`;
const ROWS = Array.from({ length: 50 }, (_, k) => ({ id: `r${pad(k + 1)}`, attrs: attrsOf(k + 1), size: 100 - k, flag: k % 4 === 0, day: dayOf(k + 1) }));
const ids = (pred: (a: TAttrs) => boolean) => ROWS.filter((r) => pred(r.attrs)).map((r) => r.id);
const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

const FIELDS: TRqlFields = {
  id: { sql: sql`r.id`, type: "string" },
  name: { sql: sql`r.attrs->>'name'`, type: "string" },
  age: { sql: sql`r.attrs->>'age'`, type: "number" },
  active: { sql: sql`r.attrs->>'active'`, type: "boolean" },
  born: { sql: sql`r.attrs->>'born'`, type: "date" },
  roles: { sql: sql`r.attrs->'roles'`, type: "string_list" },
  city: { sql: sql`r.attrs->>'city'`, type: "string" },
  size: { sql: sql`r.size`, type: "number" },
  flag: { sql: sql`r.flag`, type: "boolean" },
  day: { sql: sql`r.day`, type: "date" },
};

describe.each(DB_KINDS)("compiled RQL on %s", (kind) => {
  let t: TTestDatabase;
  const search = (rql: string) => searchScratch(t.db.prisma, compileRql(parseRql(rql), FIELDS));

  beforeAll(async () => {
    t = await freshDatabase(kind);
    await createScratchTable(t.db.prisma, ROWS);
  });
  afterAll(async () => t?.close());

  it("matches strings exactly, and missing attributes as not equal", async () => {
    expect(await search("eq(name,acme)")).toEqual(["r01"]);
    expect(await search("ne(name,acme)")).toEqual(ids((a) => a.name !== "acme"));
    expect(await search("eq(city,null)")).toEqual(ids((a) => a.city == null));
    expect(await search("ne(city,c1)")).toEqual(ids((a) => a.city !== "c1"));
    expect(await search("in(id,(r03,r30,nope))")).toEqual(["r03", "r30"]);
  });

  it("likes case-insensitively, with * as the only wildcard", async () => {
    expect(await search("like(name,acme*)")).toEqual(["r01", "r02", "r03"]);
    expect(await search("like(name,*CORP)")).toEqual(["r02"]);
    expect(await search("like(name,100%25_off)")).toEqual(["r04"]);
    expect(await search("like(name,100*off)")).toEqual(["r04", "r05"]);
    expect(await search("like(name,n_1)")).toEqual([]);
  });

  it("compares numbers as numbers, reading a stored non-number as no number", async () => {
    expect(await search("gt(age,40)")).toEqual(ids((a) => (num(a.age) ?? -Infinity) > 40));
    expect(await search("eq(age,10.0)")).toEqual(["r09", "r10"]);
    expect(await search("le(age,number:3)")).toEqual(["r01", "r02", "r03"]);
    expect(await search("in(age,(7,8,10))")).toEqual(["r09", "r10"]);
    expect(await search("ne(age,5)")).toEqual(ids((a) => num(a.age) !== 5));
    expect(await search("eq(age,null)")).toEqual(["r08"]);
  });

  it("compares booleans, dates and string lists by their type", async () => {
    expect(await search("eq(active,true)")).toEqual(ids((a) => a.active === true));
    expect(await search("ne(active,true)")).toEqual(ids((a) => a.active !== true));
    expect(await search("eq(born,2000-01-05)")).toEqual(["r04", "r32"]);
    expect(await search("ge(born,date:2000-01-27)")).toEqual(ids((a) => typeof a.born === "string" && /^\d{4}-/.test(a.born) && a.born >= "2000-01-27"));
    expect(await search("eq(roles,admin)")).toEqual(ids((a) => list(a.roles).includes("admin")));
    expect(await search("ne(roles,user)")).toEqual(ids((a) => !list(a.roles).includes("user")));
    expect(await search("in(roles,(ghost,admin))")).toEqual(ids((a) => list(a.roles).includes("admin")));
    expect(await search("like(roles,ADM*)")).toEqual(ids((a) => list(a.roles).includes("admin")));
    expect(await search("eq(roles,null)")).toEqual(["r15"]);
  });

  it("filters and sorts typed columns as well as attributes", async () => {
    expect(await search("gt(size,98)")).toEqual(["r01", "r02"]);
    expect(await search("in(size,(51,number:52.0))")).toEqual(["r49", "r50"]);
    expect(await search("eq(flag,true)&le(size,90)")).toEqual(ROWS.filter((r) => r.flag && r.size <= 90).map((r) => r.id));
    expect(await search("ge(day,2000-02-27)")).toEqual(ROWS.filter((r) => r.day >= "2000-02-27").map((r) => r.id));
    expect(await search("eq(day,date:2000-01-28)")).toEqual(["r28"]);
    expect(await search("sort(+size)&limit(3)")).toEqual(["r50", "r49", "r48"]);
  });

  it("combines and() and or()", async () => {
    expect(await search("or(eq(name,acme),and(gt(age,45),eq(active,true)))")).toEqual(["r01", "r46", "r48", "r50"]);
    expect(await search("like(name,n*)&lt(age,13),ne(roles,admin)")).toEqual(ids((a) => String(a.name).startsWith("n") && (num(a.age) ?? 99) < 13 && !list(a.roles).includes("admin")));
  });

  it("sorts, with missing values last either way, and pages with limit and offset", async () => {
    const byAge = ROWS.filter((r) => num(r.attrs.age) !== undefined).sort((x, y) => num(y.attrs.age)! - num(x.attrs.age)! || x.id.localeCompare(y.id));
    expect(await search("sort(-age)")).toEqual([...byAge.map((r) => r.id), "r07", "r08"]);
    expect((await search("sort(+age)")).slice(-2)).toEqual(["r07", "r08"]);
    expect(await search("sort(-born,-id)&limit(3)")).toEqual(bornDescending().slice(0, 3));
    expect(await search("sort(+id)&limit(5,10)")).toEqual(["r11", "r12", "r13", "r14", "r15"]);
    expect(await search("sort(-id)&limit(2,48)")).toEqual(["r02", "r01"]);
  });

  it("takes hostile values as plain text: they match only themselves and change nothing", async () => {
    for (const h of HOSTILE) {
      const v = encodeRqlValue(h);
      expect(await search(`eq(name,${v})`)).toEqual(h === HOSTILE[0] ? ["r06"] : []);
      expect(await search(`like(name,${v})`)).toEqual(h === HOSTILE[0] ? ["r06"] : []);
      expect(await search(`in(roles,(${v}))`)).toEqual([]);
      expect(await search(`or(eq(city,${v}),eq(id,${v}))`)).toEqual([]);
    }
    expect(await countScratch(t.db.prisma)).toBe(ROWS.length);
    expect(await search("eq(name,acme)")).toEqual(["r01"]);
  });

  it("finds the same rows when eq and in compile to jsonb containment (the GIN-served form)", async () => {
    const contained = (name: string) => ({ ...FIELDS[name]!, jsonb: { column: sql`r.attrs`, key: name } });
    const J: TRqlFields = { ...FIELDS, name: contained("name"), active: contained("active"), roles: contained("roles"), city: contained("city") };
    const both = async (rql: string) => {
      const compiled = compileRql(parseRql(rql), J);
      expect(compiled.where.text, rql).toContain("@>");
      expect(await searchScratch(t.db.prisma, compiled), rql).toEqual(await search(rql));
    };
    for (const rql of ["eq(name,acme)", "eq(name,ACME)", "in(name,(acme,acme-west,nope))", "eq(active,true)", "eq(active,false)", "eq(roles,admin)", "in(roles,(ghost,user))", "eq(city,c1)", "in(city,(c0,c3))", "and(eq(roles,admin),eq(active,true))"]) {
      await both(rql);
    }
    await both(`eq(name,${encodeRqlValue(HOSTILE[0]!)})`);
    expect(await searchScratch(t.db.prisma, compileRql(parseRql("eq(city,null)"), J))).toEqual(await search("eq(city,null)"));
  });
});

/** The rows with a date, by born descending, then id descending: what sort(-born,-id) must give. */
function bornDescending(): string[] {
  const dated = ROWS.filter((r) => typeof r.attrs.born === "string" && /^\d{4}-\d{2}-\d{2}$/.test(r.attrs.born as string));
  dated.sort((x, y) => String(y.attrs.born).localeCompare(String(x.attrs.born)) || y.id.localeCompare(x.id));
  return dated.map((r) => r.id);
}
