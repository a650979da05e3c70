import { getPrisma, type TTx } from "../db/index.ts";
import type { TThrottleState } from "./throttle-policy.ts";

const STATE = { key: true, failures: true, level: true, lockedUntil: true, windowStart: true, windowFailures: true, updatedAt: true } as const;

type TThrottleRow = { key: string; failures: number; level: number; locked_until: Date | null; window_start: Date; window_failures: number; updated_at: Date };

/**
 * Locks the counters of `keys` for the caller's transaction, creating missing ones first. The rows
 * are locked in key order (PostgreSQL locks the rows of `FOR UPDATE` as the sorted output reaches
 * them), so two attempts locking the same pair cannot deadlock.
 */
export async function lockThrottles(keys: string[], now: Date, tx: TTx): Promise<Map<string, TThrottleState>> {
  const sorted = [...new Set(keys)].sort();
  await tx.signInThrottle.createMany({ data: sorted.map((key) => ({ key, windowStart: now, updatedAt: now })), skipDuplicates: true });
  const rows = await tx.$queryRaw<TThrottleRow[]>`
    SELECT key, failures, level, locked_until, window_start, window_failures, updated_at
    FROM sign_in_throttles WHERE key = ANY(${sorted}::text[]) ORDER BY key FOR UPDATE`;
  return new Map(
    rows.map((r) => [
      r.key,
      { failures: r.failures, level: r.level, lockedUntil: r.locked_until, windowStart: r.window_start, windowFailures: r.window_failures, updatedAt: r.updated_at },
    ]),
  );
}

/**
 * A successful attempt, settled in one statement (an UPDATE locks the rows it changes, so no
 * transaction is needed): the account's series starts over, the address only gets its one slot
 * back, so that signing in to one's own account between guesses at others' buys nothing. This is
 * the hot path of every sign-in, hence SQL rather than a locked read and two writes.
 */
export async function settleSuccess(accountKey: string, ipKey: string | undefined, now: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$executeRaw`
    UPDATE sign_in_throttles SET
      failures = CASE WHEN key = ${accountKey} THEN 0 ELSE greatest(failures - 1, 0) END,
      level = CASE WHEN key = ${accountKey} THEN 0 ELSE level END,
      locked_until = CASE WHEN key = ${accountKey} THEN NULL ELSE locked_until END,
      window_failures = greatest(window_failures - 1, 0),
      updated_at = ${now}
    WHERE key = ${accountKey} OR key = ${ipKey ?? accountKey}`;
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
