import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SEALED_COLUMNS } from "./sealed-columns.ts";

/** table.column of every field the schema documents as sealed (a `///` line saying so just above it). */
function sealedInSchema(): string[] {
  const found: string[] = [];
  let fields: { column: string; sealed: boolean }[] = [];
  let docSaysSealed = false;
  for (const line of readFileSync("prisma/schema.prisma", "utf8").split("\n")) {
    const t = line.trim();
    // A model's own doc comment (above `model`) is about the model, not its first field.
    if (t.startsWith("model ")) {
      fields = [];
      docSaysSealed = false;
    } else if (t.startsWith("///")) docSaysSealed ||= /\bsealed\b/i.test(t);
    else if (t.startsWith("@@map(")) {
      const table = /@@map\("([^"]+)"\)/.exec(t)![1]!;
      for (const f of fields) if (f.sealed) found.push(`${table}.${f.column}`);
    } else if (/^[a-zA-Z]+\s+String/.test(t)) {
      const [name] = t.split(/\s+/);
      const column = /@map\("([^"]+)"\)/.exec(t)?.[1] ?? name!;
      fields.push({ column, sealed: docSaysSealed });
      docSaysSealed = false;
    } else if (t) docSaysSealed = false;
  }
  return found.sort();
}

describe("SEALED_COLUMNS", () => {
  it("names every column the schema documents as sealed, so a rotation re-seals them all", () => {
    expect(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort()).toEqual(sealedInSchema());
  });
});
