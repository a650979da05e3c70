import { openDatabase, setDatabase, type TDatabase } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrator.ts";
import { createPgDatabase } from "../../scripts/server-lib.mjs";

export type TDbKind = "pglite" | "postgres";

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server to create databases on. */
export const DB_KINDS: TDbKind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TTestDatabase = { db: TDatabase; url?: string; close(): Promise<void> };

/** A fresh, empty database of the given kind (not migrated). */
export async function freshDatabase(kind: TDbKind): Promise<TTestDatabase> {
  if (kind === "pglite") {
    const db = await openDatabase({ kind: "memory" });
    return { db, close: () => db.close() };
  }
  const created = await createPgDatabase(process.env.TEST_DATABASE_URL!);
  const db = await openDatabase({ kind: "postgres", url: created.url });
  return {
    db,
    url: created.url,
    close: async () => {
      await db.close();
      await created.drop();
    },
  };
}

/** A fresh, migrated database installed as the process-wide one, so services use it. */
export async function installTestDatabase(kind: TDbKind): Promise<TTestDatabase> {
  const t = await freshDatabase(kind);
  await migrate(t.db.sql);
  setDatabase(t.db);
  return {
    ...t,
    close: async () => {
      setDatabase(undefined);
      await t.close();
    },
  };
}
