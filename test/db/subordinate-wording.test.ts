import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltinRights } from "../../server/rights/definitions.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The built-in rights' English descriptions say "subordinate account". A database made before that
// keeps the old wording until its migration rewrites it: only where the text is still the service's
// own, never an administrator's.

const MIGRATION = readFileSync("prisma/migrations/20261204000100_subordinate_account_wording/migration.sql", "utf8");

describe.each(DB_KINDS)("the built-in rights' wording on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinRights();
  });
  afterAll(async () => t?.close());

  const descriptions = async () =>
    Object.fromEntries((await t.db.prisma.rightDefinition.findMany({ where: { builtin: true }, select: { name: true, descriptionEn: true } })).map((d) => [d.name, d.descriptionEn]));

  it("is written with the new wording on a new database", async () => {
    expect(await descriptions()).toEqual({ change_password: "Change the password of a subordinate account", change_attrs: "Change the attributes of a subordinate account" });
  });

  it("is rewritten by the migration where it is still the old wording, and left where an administrator changed it", async () => {
    await t.db.prisma.rightDefinition.update({ where: { name: "change_password" }, data: { descriptionEn: "Change the password of a slave account" } });
    await t.db.prisma.rightDefinition.update({ where: { name: "change_attrs" }, data: { descriptionEn: "Edit a family member's profile" } });
    await t.db.sql.session((s) => s.exec(MIGRATION));
    expect(await descriptions()).toEqual({ change_password: "Change the password of a subordinate account", change_attrs: "Edit a family member's profile" });
  });
});
