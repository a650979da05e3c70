import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { openDatabase, useDatabase, type PrismaClient, type TDatabase } from "./database.ts";
import { isTransactionStartTimeout } from "./errors.ts";
import type { Prisma } from "./generated/client.ts";

/** The process-wide database, opened from configuration on first use. */
export function getDatabase(): Promise<TDatabase> {
  return useDatabase(() => openDatabase(getConfig().database));
}

/** The Prisma client. Only repositories call this. */
export async function getPrisma(): Promise<PrismaClient> {
  return (await getDatabase()).prisma;
}

export type TTx = Prisma.TransactionClient;

/** After a bulk write: on the embedded database, a checkpoint once enough WAL has piled up. */
export async function checkpointIfDue(): Promise<void> {
  await (await getDatabase()).checkpointIfDue?.();
}

/**
 * Prisma's defaults (2 s to get a connection, 5 s to finish) turned a burst of sign-ins on a busy
 * machine into 500s: with 10 pooled connections (one on the embedded database), transactions queue.
 * They may now wait 10 s for a connection; one that still gets none is answered 503 with Retry-After.
 */
const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/** Runs fn in one database transaction; repositories accept the `tx` it hands out. */
export async function inTransaction<T>(fn: (tx: TTx) => Promise<T>): Promise<T> {
  const prisma = await getPrisma();
  try {
    return await prisma.$transaction(fn, TX_OPTIONS);
  } catch (e) {
    if (isTransactionStartTimeout(e)) throw new AppError("db.busy", { headers: { "retry-after": "1" } });
    throw e;
  }
}
