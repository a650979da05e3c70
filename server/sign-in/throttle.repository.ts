import { getPrisma, type TTx } from "../db/index.ts";
import type { TThrottleState } from "./throttle-policy.ts";

const STATE = { key: true, failures: true, level: true, lockedUntil: true, windowStart: true, windowFailures: true, updatedAt: true } as const;

/**
 * Locks the counters of `keys` for the caller's transaction, creating missing ones first. Keys are
 * taken in sorted order so that two attempts locking the same pair cannot deadlock.
 */
export async function lockThrottles(keys: string[], now: Date, tx: TTx): Promise<Map<string, TThrottleState>> {
  const sorted = [...new Set(keys)].sort();
  await tx.signInThrottle.createMany({ data: sorted.map((key) => ({ key, windowStart: now, updatedAt: now })), skipDuplicates: true });
  const out = new Map<string, TThrottleState>();
  for (const key of sorted) {
    // One row at a time, in order: FOR UPDATE over a list would lock in whatever order the plan reads.
    const rows = await tx.$queryRaw<{ failures: number; level: number; locked_until: Date | null; window_start: Date; window_failures: number; updated_at: Date }[]>`
      SELECT failures, level, locked_until, window_start, window_failures, updated_at FROM sign_in_throttles WHERE key = ${key} FOR UPDATE`;
    const r = rows[0]!;
    out.set(key, {
      failures: r.failures,
      level: r.level,
      lockedUntil: r.locked_until,
      windowStart: r.window_start,
      windowFailures: r.window_failures,
      updatedAt: r.updated_at,
    });
  }
  return out;
}

export async function saveThrottle(key: string, s: TThrottleState, tx: TTx): Promise<void> {
  await tx.signInThrottle.update({ where: { key }, data: s, select: { key: true } });
}

/** Counters nobody has touched since `before` and that hold no lockout: forgotten anyway. */
export async function deleteIdleThrottles(before: Date): Promise<number> {
  const prisma = await getPrisma();
  const { count } = await prisma.signInThrottle.deleteMany({ where: { updatedAt: { lt: before }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: before } }] } });
  return count;
}

export async function findThrottle(key: string): Promise<TThrottleState | null> {
  const prisma = await getPrisma();
  return prisma.signInThrottle.findUnique({ where: { key }, select: STATE });
}
