import type { TEventActor } from "../audit/audit.service.ts";
import { getPrisma, type TTx } from "../db/index.ts";
import type { TStateName, TStateRow } from "./account-state-rules.ts";

export type TStateOfAccount = { state: TStateRow; createdAt: Date };

type TRow = {
  created_at: Date;
  name: string | null;
  checked_on: Date | null;
  locked_on: Date | null;
  untouchable: boolean | null;
  untouchable_till: Date | null;
};

function toState(r: TRow): TStateOfAccount {
  return {
    createdAt: r.created_at,
    state: {
      name: (r.name ?? "initial") as TStateName,
      checkedOn: r.checked_on,
      lockedOn: r.locked_on,
      untouchable: r.untouchable ?? false,
      untouchableTill: r.untouchable_till,
    },
  };
}

/** The account's stored state; null when it has no row (initial, never made untouchable). */
export async function findStateRow(userId: string): Promise<TStateRow | null> {
  const prisma = await getPrisma();
  const row = await prisma.accountState.findUnique({
    where: { userId },
    select: { name: true, checkedOn: true, lockedOn: true, untouchable: true, untouchableTill: true },
  });
  return row ? { ...row, name: row.name as TStateName } : null;
}

/** Locks the account's state row for the caller's transaction, creating it (initial) first; null when there is no such account. */
export async function lockState(userId: string, tx: TTx): Promise<TStateOfAccount | null> {
  await tx.$executeRaw`INSERT INTO account_states (user_id) SELECT id FROM users WHERE id = ${userId} ON CONFLICT (user_id) DO NOTHING`;
  const rows = await tx.$queryRaw<TRow[]>`
    SELECT u.created_at, s.name, s.checked_on, s.locked_on, s.untouchable, s.untouchable_till
    FROM account_states s JOIN users u ON u.id = s.user_id WHERE s.user_id = ${userId} FOR UPDATE OF s`;
  return rows[0] ? toState(rows[0]) : null;
}

export async function saveState(userId: string, s: TStateRow, tx: TTx): Promise<void> {
  await tx.accountState.update({ where: { userId }, data: { ...s, updatedAt: new Date() }, select: { userId: true } });
}

// One number for the sweep's advisory lock, whatever process takes it.
const SWEEP_LOCK_KEY = 7_246_917_401;

/** Sweep runs long on a big database; it holds one transaction so that its advisory lock lasts to the end. */
const SWEEP_TX = { maxWait: 10_000, timeout: 15 * 60_000 };

/**
 * Runs `fn` in a transaction holding the sweep's advisory lock; undefined when another sweep (any
 * process, any instance) holds it: that one does the work.
 */
export async function withSweepLock<T>(fn: (tx: TTx) => Promise<T>): Promise<T | undefined> {
  const prisma = await getPrisma();
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ got: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}::bigint) AS got`;
    return rows[0]?.got ? fn(tx) : undefined;
  }, SWEEP_TX);
}

export type TLockedBySweep = { userId: string; from: "initial" | "active" };

/**
 * Locks up to `batch` accounts whose period ran out by `cutoff`, skipping untouchable ones. The
 * conditions are checked again on each row as it is locked (ON CONFLICT … WHERE), so an account that
 * signed in meanwhile is left alone. Returns the accounts locked and what they were.
 */
export async function lockDueAccounts(now: Date, cutoff: Date, batch: number, tx: TTx): Promise<TLockedBySweep[]> {
  const rows = await tx.$queryRaw<{ user_id: string; checked_on: Date | null }[]>`
    WITH due AS (
      SELECT u.id FROM users u LEFT JOIN account_states s ON s.user_id = u.id
      WHERE coalesce(s.name, 'initial') <> 'inactivityLock'
        AND NOT coalesce(s.untouchable AND (s.untouchable_till IS NULL OR s.untouchable_till > ${now}), false)
        AND greatest(coalesce(s.checked_on, u.created_at), s.untouchable_till) <= ${cutoff}
      ORDER BY u.id LIMIT ${batch}
    )
    INSERT INTO account_states AS a (user_id, name, locked_on, updated_at)
    SELECT id, 'inactivityLock', ${now}, ${now} FROM due
    ON CONFLICT (user_id) DO UPDATE SET name = 'inactivityLock', locked_on = ${now}, updated_at = ${now}
    WHERE a.name <> 'inactivityLock'
      AND NOT (a.untouchable AND (a.untouchable_till IS NULL OR a.untouchable_till > ${now}))
      AND coalesce(a.checked_on, '-infinity') <= ${cutoff}
      AND coalesce(a.untouchable_till, '-infinity') <= ${cutoff}
    RETURNING a.user_id, a.checked_on`;
  // An account that never signed in has no checkedOn: it was initial.
  return rows.map((r) => ({ userId: r.user_id, from: r.checked_on ? "active" : "initial" }));
}

/**
 * State changes' events, in the transaction of the change: a lock is never without its event, nor an
 * event without its lock. `actor` fills the event's client, address and browser as recordEvent does.
 */
export async function insertStateEvents(rows: { subject: string; actor?: TEventActor; params: Record<string, unknown> }[], tx: TTx): Promise<void> {
  if (!rows.length) return;
  await tx.securityEvent.createMany({
    data: rows.map((r) => ({
      type: "user.state_changed",
      subject: r.subject,
      clientId: r.actor?.clientId,
      ip: r.actor?.ip,
      userAgent: r.actor?.userAgent,
      params: r.params as object,
    })),
  });
}
