import { getPrisma, type TTx } from "../db/index.ts";
import { joinSql } from "../db/sql.ts";
import type { TThrottleState } from "./throttle-policy.ts";

const STATE = { key: true, failures: true, level: true, lockedUntil: true, windowStart: true, windowFailures: true, updatedAt: true } as const;

type TThrottleRow = { key: string; failures: number; level: number; locked_until: Date | null; window_start: Date; window_failures: number; updated_at: Date };

/**
 * Locks the counters of `keys` for the caller's transaction, creating missing ones, and returns
 * them: one statement (an upsert whose no-op update takes the row lock) instead of an insert and a
 * `SELECT … FOR UPDATE`, since every sign-in passes here. The keys go in sorted, and rows are locked
 * in the order the insert reaches them, so two attempts locking the same pair cannot deadlock.
 */
export async function lockThrottles(keys: string[], now: Date, tx: TTx): Promise<Map<string, TThrottleState>> {
  const sorted = [...new Set(keys)].sort();
  const rows = await tx.$queryRaw<TThrottleRow[]>`
    INSERT INTO sign_in_throttles (key, window_start, updated_at)
    SELECT k, ${now}, ${now} FROM unnest(${sorted}::text[]) AS k ORDER BY k
    ON CONFLICT (key) DO UPDATE SET key = excluded.key
    RETURNING key, failures, level, locked_until, window_start, window_failures, updated_at`;
  return new Map(
    rows.map((r) => [
      r.key,
      { failures: r.failures, level: r.level, lockedUntil: r.locked_until, windowStart: r.window_start, windowFailures: r.window_failures, updatedAt: r.updated_at },
    ]),
  );
}

/**
 * A successful attempt, settled in one statement (an UPDATE locks the rows it changes, so no
 * transaction is needed): the account's series starts over, the other counters (the address, the
 * account's ceiling) only get their one slot back, so that signing in to one's own account between guesses at others' buys nothing. This is
 * the hot path of every sign-in, hence SQL rather than a locked read and two writes.
 */
export async function settleSuccess(accountKey: string, others: string[], now: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$executeRaw`
    UPDATE sign_in_throttles SET
      failures = CASE WHEN key = ${accountKey} THEN 0 ELSE greatest(failures - 1, 0) END,
      level = CASE WHEN key = ${accountKey} THEN 0 ELSE level END,
      locked_until = CASE WHEN key = ${accountKey} THEN NULL ELSE locked_until END,
      window_failures = greatest(window_failures - 1, 0),
      updated_at = ${now}
    WHERE key IN (${joinSql([accountKey, ...others])})`;
}

/** Writes the counters locked by lockThrottles, all in one statement. */
export async function saveThrottles(states: [string, TThrottleState][], tx: TTx): Promise<void> {
  if (!states.length) return;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  const col = <T>(f: (s: TThrottleState) => T) => states.map(([, s]) => f(s));
  await tx.$executeRaw`
    UPDATE sign_in_throttles t SET
      failures = v.failures, level = v.level, locked_until = v.locked_until::timestamptz,
      window_start = v.window_start::timestamptz, window_failures = v.window_failures, updated_at = v.updated_at::timestamptz
    FROM unnest(${states.map(([k]) => k)}::text[], ${col((s) => s.failures)}::int[], ${col((s) => s.level)}::int[],
      ${col((s) => iso(s.lockedUntil))}::text[], ${col((s) => iso(s.windowStart))}::text[], ${col((s) => s.windowFailures)}::int[],
      ${col((s) => iso(s.updatedAt))}::text[]) AS v(key, failures, level, locked_until, window_start, window_failures, updated_at)
    WHERE t.key = v.key`;
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
