import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, readMigrationFiles, MigrationError } from "../../server/db/migrator.ts";
import { DB_KINDS, freshDatabase, type TTestDatabase } from "../support/test-db.ts";

describe.each(DB_KINDS)("migrator on %s", (kind) => {
  let t: TTestDatabase;
  afterEach(async () => t?.close());

  it("applies every migration once and records it as prisma migrate deploy does", async () => {
    t = await freshDatabase(kind);
    const files = readMigrationFiles();
    expect(await migrate(t.db.sql)).toEqual(files.map((f) => f.name));
    expect(await migrate(t.db.sql)).toEqual([]);

    const columns = await t.db.sql.session((s) =>
      s.query<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      ),
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      "id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count",
    ]);
    const rows = await t.db.sql.session((s) =>
      s.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
        `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
      ),
    );
    expect(rows).toHaveLength(files.length);
    for (const [i, f] of files.entries()) {
      expect(rows[i]!.migration_name).toBe(f.name);
      expect(rows[i]!.checksum).toBe(createHash("sha256").update(f.sql).digest("hex"));
      expect(rows[i]!.finished_at).not.toBeNull();
      expect(rows[i]!.applied_steps_count).toBe(1);
    }
  });

  it("refuses an applied migration whose file changed", async () => {
    t = await freshDatabase(kind);
    const files = readMigrationFiles();
    await migrate(t.db.sql, files);
    const edited = files.map((f, i) => (i === 0 ? { ...f, checksum: "0".repeat(64) } : f));
    await expect(migrate(t.db.sql, edited)).rejects.toThrow(MigrationError);
    await expect(migrate(t.db.sql, edited)).rejects.toThrow(/was changed after it was applied/);
  });

  it("rolls back a failing migration and records nothing for it", async () => {
    t = await freshDatabase(kind);
    const files = [
      ...readMigrationFiles(),
      { name: "29990101000000_broken", sql: `CREATE TABLE "half_done" (id INT); SELECT * FROM no_such_table;`, checksum: "f".repeat(64) },
    ];
    await expect(migrate(t.db.sql, files)).rejects.toThrow(/migration 29990101000000_broken failed/);
    const tables = await t.db.sql.session((s) => s.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`));
    expect(tables).toHaveLength(0);
    const recorded = await t.db.sql.session((s) => s.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`));
    expect(recorded).toHaveLength(0);
  });
});
