import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { TConfig } from "../config/config.ts";
import { log } from "../log/logger.ts";
import { createEmbeddedDataDir } from "./embedded-init.ts";
import { lockDataDir } from "./embedded-lock.ts";
import { guardEmbeddedWal } from "./embedded-wal.ts";
import { PrismaClient } from "./generated/client.ts";
import { pgNotifications, type TNotifications } from "./notifications.ts";
import { pgDriver, pgliteDriver, type SqlDriver } from "./sql-driver.ts";

export type { PrismaClient, TNotifications };

/**
 * An open database: the Prisma client for repositories, a raw driver for migrations and probes, and
 * on PostgreSQL the notifications through which several processes keep their caches coherent (the
 * embedded database belongs to one process and has none).
 */
export type TDatabase = {
  prisma: PrismaClient;
  sql: SqlDriver;
  notifications?: TNotifications;
  /** Embedded only: checkpoints when enough WAL has piled up (see embedded-wal.ts); bulk writers call it. */
  checkpointIfDue?: () => Promise<void>;
  /** PostgreSQL only: the pool's connections now (for metrics); the embedded database has one, and no pool. */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /** In memory only: the database as an image a later one can start from (tests start from a migrated one). */
  image?: () => Promise<Blob>;
  close(): Promise<void>;
};

/** Connections per process when IDP_DB_POOL_MAX does not say (config.ts). */
const DEFAULT_POOL_MAX = 10;

async function openPostgres(url: string, poolMax = DEFAULT_POOL_MAX): Promise<TDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const notifications = pgNotifications(url, pool);
  return {
    prisma,
    sql: pgDriver(pool),
    notifications,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax }),
    close: async () => {
      await notifications.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

// Extensions the migrations create; PGlite loads their code only when told to. PGlite's default
// buffer pool of 128 MB is allocated and touched in full inside its WASM heap, a resident cost paid
// even by an empty database; 16 MB cut a started server's RSS by ~110 MB (bench/README.md, Memory).
// Pages that miss it come from the OS page cache, not the disk.
const PGLITE_OPTIONS: PGliteOptions = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
};

async function openEmbedded(dir: string): Promise<TDatabase> {
  const release = lockDataDir(dir);
  try {
    await createEmbeddedDataDir(dir);
    const pglite = await PGlite.create(dir, PGLITE_OPTIONS);
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
    const wal = guardEmbeddedWal(pglite);
    return {
      prisma,
      sql: pgliteDriver(pglite),
      checkpointIfDue: wal.checkpointIfDue,
      close: async () => {
        wal.stop();
        await prisma.$disconnect();
        await pglite.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * Opens PostgreSQL when DATABASE_URL is set, else the embedded PGlite in IDP_DATA_DIR, or one in
 * memory: empty, or started from an `image` of another (loading one is several times cheaper than
 * creating a cluster).
 */
export function openDatabase(db: TConfig["database"] | { kind: "memory"; image?: Blob }): Promise<TDatabase> {
  // One per process is the rule (an embedded database opened twice corrupts it): this line lets a
  // test or an operator count the opens (IDP_LOG_LEVEL=debug).
  log.debug("database opened", { kind: db.kind, pid: process.pid });
  if (db.kind === "postgres") return openPostgres(db.url, db.poolMax);
  if (db.kind === "embedded") return openEmbedded(db.dir);
  return PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: db.image }).then((pglite) => ({
    prisma: new PrismaClient({ adapter: new PrismaPGlite(pglite) }),
    sql: pgliteDriver(pglite),
    image: () => pglite.dumpDataDir("none"),
    close: () => pglite.close(),
  }));
}

const KEY = Symbol.for("idp.database");
type Holder = { [KEY]?: Promise<TDatabase> };

/**
 * The process-wide database. Next bundles route handlers and instrumentation separately, so a
 * module-level variable would exist once per bundle; globalThis is the one place they share.
 */
export function useDatabase(open: () => Promise<TDatabase>): Promise<TDatabase> {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= open());
}

/** Replaces the process-wide database (tests and CLI commands that open their own). */
export function setDatabase(db: TDatabase | undefined): void {
  const holder = globalThis as Holder;
  holder[KEY] = db ? Promise.resolve(db) : undefined;
}
