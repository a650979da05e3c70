import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, setDatabase, type TDatabase } from "../../server/db/database.ts";
import { migrate, MIGRATIONS_DIR } from "../../server/db/migrator.ts";
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

/**
 * A migrated PGlite as an image, made once per set of migrations and kept in the temporary folder:
 * creating a PGlite cluster costs 2-4 s of CPU and migrating it 0.5 s, loading an image 0.4 s, and
 * the unit suite opens some hundred of them. The name is a hash of every migration file, so a
 * changed or added migration makes a new image; two workers making it at once both rename a whole file.
 */
async function migratedImage(): Promise<Blob> {
  const hash = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    const file = path.join(MIGRATIONS_DIR, name);
    if (name.endsWith(".sql")) hash.update(name).update(readFileSync(file));
  }
  const dir = path.join(os.tmpdir(), "idp-test-images");
  const file = path.join(dir, `pglite-${hash.digest("hex").slice(0, 24)}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const db = await openDatabase({ kind: "memory" });
  await migrate(db.sql);
  const image = await db.image!();
  await db.close();
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
  renameSync(partial, file);
  return image;
}

/** A fresh, migrated database installed as the process-wide one, so services use it. */
export async function installTestDatabase(kind: TDbKind): Promise<TTestDatabase> {
  let t: TTestDatabase;
  if (kind === "pglite") {
    const db = await openDatabase({ kind: "memory", image: await migratedImage() });
    t = { db, close: () => db.close() };
  } else {
    t = await freshDatabase(kind);
    await migrate(t.db.sql);
  }
  setDatabase(t.db);
  return {
    ...t,
    close: async () => {
      setDatabase(undefined);
      await t.close();
    },
  };
}
