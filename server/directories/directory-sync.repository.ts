import { randomUUID } from "node:crypto";
import { isUniqueViolation } from "../db/errors.ts";
import { getPrisma } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";

export type TRunCounts = {
  searches: number;
  seen: number;
  created: number;
  updated: number;
  locked: number;
  unlocked: number;
  deleted: number;
  failed: number;
  /** The group pass: groups made and changed here, the directory's memberships added and removed. */
  groupsCreated: number;
  groupsUpdated: number;
  membersAdded: number;
  membersRemoved: number;
};
export type TRunFailure = { dn: string; reason: string };
export type TSyncRun = TRunCounts & { id: string; directoryId: string; kind: "full" | "incremental"; status: "running" | "done" | "failed"; startedAt: Date; finishedAt: Date | null; failures: TRunFailure[]; error: string | null };

// A run whose instance stopped beating this long ago died with it (a crash, a kill): it no longer holds the directory.
const ABANDONED_MS = 10 * 60_000;

/** Starts a run, or null when one is running for this directory already (on any instance). */
export async function insertRun(directoryId: string, kind: TSyncRun["kind"], now: Date): Promise<string | null> {
  const prisma = await getPrisma();
  await prisma.directorySyncRun.updateMany({
    where: { directoryId, status: "running", heartbeatAt: { lt: new Date(now.getTime() - ABANDONED_MS) } },
    data: { status: "failed", finishedAt: now, error: "abandoned: its instance stopped" },
  });
  const id = randomUUID();
  try {
    await prisma.directorySyncRun.create({ data: { id, directoryId, kind, startedAt: now, heartbeatAt: now }, select: { id: true } });
    return id;
  } catch (e) {
    if (isUniqueViolation(e)) return null;
    throw e;
  }
}

/** Whether a run of the directory is going on (one whose instance still beats). */
export async function isRunning(directoryId: string, now = new Date()): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.directorySyncRun.count({ where: { directoryId, status: "running", heartbeatAt: { gte: new Date(now.getTime() - ABANDONED_MS) } } })) > 0;
}

/** The run's counts so far (the console shows its progress); also its heartbeat. */
export async function saveProgress(id: string, counts: TRunCounts, failures: TRunFailure[]): Promise<void> {
  const prisma = await getPrisma();
  await prisma.directorySyncRun.update({ where: { id }, data: { ...counts, failures: failures as unknown as Prisma.InputJsonArray, heartbeatAt: new Date() }, select: { id: true } });
}

export async function finishRun(id: string, counts: TRunCounts, failures: TRunFailure[], error: string | null): Promise<void> {
  const prisma = await getPrisma();
  await prisma.directorySyncRun.update({
    where: { id },
    data: { ...counts, failures: failures as unknown as Prisma.InputJsonArray, status: error ? "failed" : "done", error, finishedAt: new Date() },
    select: { id: true },
  });
}

const RUN = { id: true, directoryId: true, kind: true, status: true, startedAt: true, finishedAt: true, searches: true, seen: true, created: true, updated: true, locked: true, unlocked: true, deleted: true, failed: true, groupsCreated: true, groupsUpdated: true, membersAdded: true, membersRemoved: true, failures: true, error: true } as const;
type TRunRow = Prisma.DirectorySyncRunGetPayload<{ select: typeof RUN }>;
const toRun = (r: TRunRow): TSyncRun => ({ ...r, kind: r.kind as TSyncRun["kind"], status: r.status as TSyncRun["status"], failures: r.failures as TRunFailure[] });

export async function findRun(id: string): Promise<TSyncRun | null> {
  const prisma = await getPrisma();
  const row = await prisma.directorySyncRun.findUnique({ where: { id }, select: RUN });
  return row && toRun(row);
}

/** The directory's latest runs, newest first. */
export async function findRuns(directoryId: string, take: number): Promise<TSyncRun[]> {
  const prisma = await getPrisma();
  return (await prisma.directorySyncRun.findMany({ where: { directoryId }, select: RUN, orderBy: { startedAt: "desc" }, take })).map(toRun);
}

/** When the directory's last finished full run started (null: never). */
export async function lastFullRunAt(directoryId: string): Promise<Date | null> {
  const prisma = await getPrisma();
  const row = await prisma.directorySyncRun.findFirst({ where: { directoryId, kind: "full", status: "done" }, select: { startedAt: true }, orderBy: { startedAt: "desc" } });
  return row?.startedAt ?? null;
}

export async function saveHighWater(directoryId: string, highWater: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.directory.update({ where: { id: directoryId }, data: { highWater }, select: { id: true } });
}

export async function findHighWater(directoryId: string): Promise<string | null> {
  const prisma = await getPrisma();
  return (await prisma.directory.findUnique({ where: { id: directoryId }, select: { highWater: true } }))?.highWater ?? null;
}
