import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlDriver, SqlSession } from "./sql-driver.ts";

/** Raised when the database's migration history cannot be reconciled with the files. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// Any constant works; it only has to be the same for every instance migrating one database.
const ADVISORY_LOCK_KEY = 7_246_917_318;

// The table exactly as `prisma migrate deploy` creates it, so a deployment that has the real
// engine sees our migrations as applied and carries on from them.
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export type TMigrationFile = { name: string; sql: string; checksum: string };

// The migrations are read from the checkout at run time, never bundled: the ignore comment keeps the
// build from tracing the whole project into its output (and from warning about it).
export function readMigrationFiles(dir = MIGRATIONS_DIR): TMigrationFile[] {
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

type THistoryRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

async function applyPending(s: SqlSession, files: TMigrationFile[]): Promise<string[]> {
  await s.exec(HISTORY_TABLE);
  const rows = await s.query<THistoryRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
  );
  const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `migration ${failed.migration_name} failed earlier and is recorded as unfinished; fix the database and mark it rolled back`,
    );
  }
  const applied = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r.checksum]));
  const done: string[] = [];
  for (const file of files) {
    const recorded = applied.get(file.name);
    if (recorded !== undefined) {
      if (recorded !== file.checksum) {
        throw new MigrationError(
          `migration ${file.name} was changed after it was applied (checksum ${recorded.slice(0, 12)}… in the database, ` +
            `${file.checksum.slice(0, 12)}… on disk); add a new migration instead of editing an applied one`,
        );
      }
      continue;
    }
    await s.exec("BEGIN");
    try {
      await s.exec(file.sql);
      await s.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, NULL, now(), 1)`,
        [randomUUID(), file.checksum, file.name],
      );
      await s.exec("COMMIT");
    } catch (e) {
      await s.exec("ROLLBACK");
      throw new MigrationError(`migration ${file.name} failed: ${(e as Error).message}`);
    }
    done.push(file.name);
  }
  return done;
}

/**
 * Applies the pending migrations in name order, each in its own transaction, and records them in
 * `_prisma_migrations` as `prisma migrate deploy` does (checksum = sha256 of the file). On PostgreSQL
 * an advisory lock keeps two starting instances from migrating at once. Returns the names applied.
 */
export async function migrate(driver: SqlDriver, files = readMigrationFiles()): Promise<string[]> {
  return withAdvisoryLock(driver, ADVISORY_LOCK_KEY, (s) => applyPending(s, files));
}

/**
 * Runs fn while holding a session-level advisory lock on PostgreSQL, so instances starting together
 * take turns; the embedded database has one process and needs none.
 */
export async function withAdvisoryLock<T>(driver: SqlDriver, key: number, fn: (s: SqlSession) => Promise<T>): Promise<T> {
  return driver.session(async (s) => {
    if (driver.kind === "embedded") return fn(s);
    await s.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      return await fn(s);
    } finally {
      await s.query("SELECT pg_advisory_unlock($1)", [key]);
    }
  });
}
