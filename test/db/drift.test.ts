import { readFileSync } from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../server/db/migrator.ts";
import { DB_KINDS, freshDatabase, type TTestDatabase } from "../support/test-db.ts";

type TField = { name: string; dbName: string | null; kind: string; isList: boolean; isRequired: boolean; type: string; nativeType: [string, string[]] | null };
type TModel = { name: string; dbName: string | null; fields: TField[] };

// Prisma scalar → PostgreSQL udt_name, as Prisma's own migrations would create them.
const UDT: Record<string, string> = { String: "text", Boolean: "bool", Int: "int4", BigInt: "int8", DateTime: "timestamp", Json: "jsonb", Float: "float8", Bytes: "bytea" };

function udt(f: TField): string {
  if (f.type === "DateTime" && f.nativeType?.[0] === "Timestamptz") return f.isList ? "_timestamptz" : "timestamptz";
  const base = UDT[f.type] ?? f.type;
  return f.isList ? `_${base}` : base;
}

/** What schema.prisma declares: table → column → "udt nullability". */
function declared(): Map<string, Map<string, string>> {
  const schema = readFileSync(path.join(process.cwd(), "prisma", "schema.prisma"), "utf8");
  const models = (JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schema }))) as { datamodel: { models: TModel[] } }).datamodel.models;
  return new Map(
    models.map((m) => [
      m.dbName ?? m.name,
      new Map(
        m.fields
          .filter((f) => f.kind === "scalar" || f.kind === "enum")
          // Scalar lists are NOT NULL DEFAULT '{}' in our migrations: Prisma treats them as never null.
          .map((f) => [f.dbName ?? f.name, `${udt(f)} ${f.isRequired || f.isList ? "NOT NULL" : "NULL"}`]),
      ),
    ]),
  );
}

type TIndex = { model: string; type: string; dbName?: string | null; fields: { name: string }[] };

/**
 * The indexes schema.prisma declares, as "table.name(columns) unique?", named the way Prisma names
 * them. Migrations may hold more (a GIN trigram index, a partial unique one) that Prisma cannot declare.
 */
function declaredIndexes(): string[] {
  const schema = readFileSync(path.join(process.cwd(), "prisma", "schema.prisma"), "utf8");
  const dm = (JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schema }))) as { datamodel: { models: TModel[]; indexes: TIndex[] } }).datamodel;
  return dm.indexes.map((i) => {
    const model = dm.models.find((m) => m.name === i.model)!;
    const table = model.dbName ?? model.name;
    const columns = i.fields.map((f) => {
      const field = model.fields.find((x) => x.name === f.name)!;
      return field.dbName ?? field.name;
    });
    const suffix = i.type === "id" ? "pkey" : i.type === "unique" ? "key" : "idx";
    const name = i.dbName ?? (i.type === "id" ? `${table}_pkey` : `${table}_${columns.join("_")}_${suffix}`);
    return `${table}.${name}(${columns.join(",")})${i.type === "normal" ? "" : " unique"}`;
  });
}

describe.each(DB_KINDS)("migrated database matches schema.prisma on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await freshDatabase(kind);
    await migrate(t.db.sql);
  });
  afterAll(async () => t?.close());

  it("has exactly the declared tables and columns, with their types and nullability", async () => {
    const rows = await t.db.sql.session((s) =>
      s.query<{ table_name: string; column_name: string; udt_name: string; is_nullable: string }>(
        `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      ),
    );
    const actual = new Map<string, Map<string, string>>();
    for (const r of rows) {
      const table = actual.get(r.table_name) ?? new Map<string, string>();
      table.set(r.column_name, `${r.udt_name} ${r.is_nullable === "YES" ? "NULL" : "NOT NULL"}`);
      actual.set(r.table_name, table);
    }
    const expected = declared();
    expect(expected.size).toBeGreaterThan(0);
    const asObject = (m: Map<string, Map<string, string>>) =>
      Object.fromEntries([...m].sort().map(([k, v]) => [k, Object.fromEntries([...v].sort())]));
    expect(asObject(actual)).toEqual(asObject(expected));
  });

  it("has every index schema.prisma declares, under Prisma's name, on the same columns", async () => {
    const rows = await t.db.sql.session((s) =>
      s.query<{ tbl: string; name: string; cols: string; uniq: boolean }>(
        `SELECT t.relname AS tbl, i.relname AS name, ix.indisunique AS uniq,
                (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
         FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = 'public'`,
      ),
    );
    const actual = new Set(rows.map((r) => `${r.tbl}.${r.name}(${r.cols})${r.uniq ? " unique" : ""}`));
    const expected = declaredIndexes();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.filter((i) => !actual.has(i))).toEqual([]);
  });
});
