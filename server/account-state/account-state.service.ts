import type { TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountOfSubject } from "../users/subject-param.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { INITIAL_STATE, isLockDue, isUntouchable, viewOf, type TStateRow } from "./account-state-rules.ts";
import type { TAccountStateView, TSetAccountState } from "./account-state.schemas.ts";
import { findStateRow, insertStateEvents, lockDueAccounts, lockState, saveState, withSweepLock } from "./account-state.repository.ts";

const CHECKED_ON_PRECISION_MS = 3_600_000;
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const lockAfterS = () => getConfig().account.inactivity.lockAfterS;

/** What a sign-in may do with the account: go on, or stop because it is locked for inactivity. */
export type TAccountUsable = { ok: true } | { ok: false; reason: "inactivityLock"; lockedOn: number };

function notFound(userId: string): AppError {
  return new AppError("user.not_found", { params: { userId } });
}

/*
 * Every sign-in reads the state (checkAccountUsable) and GET …/state is a hot read: the stored row is
 * held in process and dropped in every process through the change bus when a writer below commits.
 * The view is computed at read time, so an exemption's end needs no invalidation.
 */
const STATE_TOPIC = "account-state";
const stateCache = keyedCache<TStateRow | null>(STATE_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 50_000 });
const changed = (userId?: string) => publishChange(STATE_TOPIC, userId);

/** The account's state and creation time; 404 when there is no such account. Both come from caches. */
async function stateOf(userId: string): Promise<{ state: TStateRow; createdAt: Date }> {
  const account = (await accountSnapshot(userId))?.account;
  if (!account) throw notFound(userId);
  const { createdAt } = account;
  return { state: await stateRowOf(userId), createdAt };
}

/** The account's stored state (INITIAL_STATE without a row), from the cache: without a Promise when cached. */
export function stateRowOf(userId: string): TMaybePromise<TStateRow> {
  return andThen(stateCache.read(userId, findStateRow), (row) => row ?? INITIAL_STATE);
}

/** The contract's state object of an account. */
export async function accountStateOf(userId: string, now = new Date()): Promise<TAccountStateView> {
  return viewOf((await stateOf(userId)).state, now);
}

/**
 * Applies the inactivity rule under the row lock: locks the account when its period ran out. Returns
 * the state after it. `by` says, in the event, what found it out.
 */
async function applyInactivityRule(userId: string, at: TClock, by: string): Promise<TStateRow> {
  const { now = new Date(), periodS = lockAfterS() } = at;
  const seen = await stateOf(userId);
  // The common case needs no transaction: nothing is due, nothing changes.
  if (!isLockDue(seen.state, seen.createdAt, now, periodS)) return seen.state;
  return afterCommit(userId, inTransaction(async (tx) => {
    const locked = await lockState(userId, tx);
    if (!locked) throw notFound(userId);
    const { state, createdAt } = locked;
    if (!isLockDue(state, createdAt, now, periodS)) return state;
    const next: TStateRow = { ...state, name: "inactivityLock", lockedOn: now };
    await saveState(userId, next, tx);
    await insertStateEvents([{ subject: userId, params: { from: state.name, to: "inactivityLock", reason: "inactivity", by } }], tx);
    return next;
  }));
}

/** Waits for a state change's transaction, then tells every process to drop the account's cached state. */
async function afterCommit<T>(userId: string | undefined, committed: Promise<T>): Promise<T> {
  const result = await committed;
  await changed(userId);
  return result;
}

/** When the rule is applied and with which period (tests set both; callers use the defaults: now and IDP_INACTIVITY_LOCK_DAYS). */
export type TClock = { now?: Date; periodS?: number };

function usable(s: TStateRow): TAccountUsable {
  return s.name === "inactivityLock" ? { ok: false, reason: "inactivityLock", lockedOn: unix(s.lockedOn ?? new Date()) } : { ok: true };
}

/**
 * For the login flow, once the password was right: whether the account may sign in. An account
 * whose inactivity period ran out is locked here and now (with its event), so the rule holds even
 * between sweeps. Changes nothing else; call recordSignedIn when the sign-in completes.
 */
export async function checkAccountUsable(userId: string, at: TClock = {}): Promise<TAccountUsable> {
  return usable(await applyInactivityRule(userId, at, "sign_in"));
}

/**
 * For the login flow, when a sign-in completes: initial → active, and checkedOn = now, which starts
 * the inactivity period over. Applies the inactivity rule first: a locked account stays locked and
 * the answer says so (nothing is recorded then).
 */
export async function recordSignedIn(userId: string, at: TClock = {}): Promise<TAccountUsable> {
  const now = at.now ?? new Date();
  const before = await applyInactivityRule(userId, { ...at, now }, "sign_in");
  if (before.name === "inactivityLock") return usable(before);
  // Every sign-in passes here; the period is counted in days, so a check written within the hour
  // stands (as a session's "last seen" has a minute's precision): the sign-in writes nothing then.
  if (before.name === "active" && before.checkedOn && now.getTime() - before.checkedOn.getTime() < CHECKED_ON_PRECISION_MS) return { ok: true };
  return afterCommit(userId, inTransaction(async (tx) => {
    const locked = await lockState(userId, tx);
    if (!locked) throw notFound(userId);
    const { state } = locked;
    if (state.name === "inactivityLock") return usable(state);
    await saveState(userId, { ...state, name: "active", checkedOn: now }, tx);
    if (state.name === "initial") await insertStateEvents([{ subject: userId, params: { from: "initial", to: "active", reason: "first_sign_in" } }], tx);
    return { ok: true } as const;
  }));
}

/**
 * Makes the account untouchable until `till` (Unix seconds; absent: forever), or ends that when `till`
 * is now or earlier. An account locked for inactivity is unlocked by it: an untouchable account is
 * never locked for inactivity. Every change is a user.state_changed event.
 */
export async function setUntouchable(userId: string, till: number | undefined, actor: TEventActor, note: Record<string, unknown> = {}, now = new Date()): Promise<void> {
  const tillDate = till === undefined ? null : new Date(till * 1000);
  await afterCommit(userId, inTransaction(async (tx) => {
    const locked = await lockState(userId, tx);
    if (!locked) throw notFound(userId);
    const { state } = locked;
    const before = viewOf(state, now).name;
    let next: TStateRow;
    if (tillDate && tillDate <= now) {
      if (!isUntouchable(state, now)) return;
      next = { ...state, untouchable: false, untouchableTill: now };
    } else {
      const unlocked = state.name === "inactivityLock" ? { name: "active" as const, checkedOn: now, lockedOn: null } : {};
      next = { ...state, ...unlocked, untouchable: true, untouchableTill: tillDate };
    }
    await saveState(userId, next, tx);
    const params = { from: before, to: viewOf(next, now).name, till: tillDate ? unix(tillDate) : null, ...note };
    await insertStateEvents([{ subject: userId, actor, params }], tx);
  }));
}

/** An administrator lifts an inactivity lock: the account is active from now, its period starts over. */
export async function unlockAccount(userId: string, actor: TEventActor, note: Record<string, unknown> = {}, now = new Date()): Promise<void> {
  await afterCommit(userId, inTransaction(async (tx) => {
    const locked = await lockState(userId, tx);
    if (!locked) throw notFound(userId);
    if (locked.state.name !== "inactivityLock") throw new AppError("state.not_locked");
    await saveState(userId, { ...locked.state, name: "active", checkedOn: now, lockedOn: null }, tx);
    await insertStateEvents([{ subject: userId, actor, params: { from: "inactivityLock", to: "active", reason: "unlocked", ...note } }], tx);
  }));
}

export type TSweepResult = { off: true } | { off: false; skipped: true } | { off: false; skipped: false; locked: number };

const SWEEP_BATCH = 1000;

/**
 * Locks every account whose inactivity period ran out (untouchable ones excepted). Safe on several
 * instances at once: the one holding the advisory lock sweeps, the others return `skipped`.
 */
export async function lockInactiveAccounts(now = new Date(), periodS = lockAfterS()): Promise<TSweepResult> {
  if (periodS <= 0) return { off: true };
  const cutoff = new Date(now.getTime() - periodS * 1000);
  const locked = await withSweepLock(async (tx) => {
    let total = 0;
    for (;;) {
      const batch = await lockDueAccounts(now, cutoff, SWEEP_BATCH, tx);
      if (!batch.length) return total;
      await insertStateEvents(batch.map((b) => ({ subject: b.userId, params: { from: b.from, to: "inactivityLock", reason: "inactivity", by: "sweep" } })), tx);
      total += batch.length;
    }
  });
  if (locked === undefined) return { off: false, skipped: true };
  // Many accounts at once: every process drops its whole state cache.
  if (locked) await changed();
  return { off: false, skipped: false, locked };
}

/** POST /api/v3/users/{subjectId}/state: only untouchable is assignable. */
export async function changeAccountState(ctx: TRequestContext, subjectId: string, body: TSetAccountState): Promise<void> {
  if (body.name !== "untouchable") {
    throw new AppError("state.not_assignable", {
      items: [{ error: "wrong_value", desc: "only untouchable can be assigned; the other states follow from sign-ins and the inactivity rule", pos: "name" }],
    });
  }
  const account = await accountOfSubject(ctx, subjectId);
  await setUntouchable(account.id, body.till, eventActorOf(ctx));
}
