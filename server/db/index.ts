import { getConfig } from "../config/config.ts";
import { openDatabase, useDatabase, type PrismaClient, type TDatabase } from "./database.ts";
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

/** Runs fn in one database transaction; repositories accept the `tx` it hands out. */
export async function inTransaction<T>(fn: (tx: TTx) => Promise<T>): Promise<T> {
  const prisma = await getPrisma();
  return prisma.$transaction(fn);
}
