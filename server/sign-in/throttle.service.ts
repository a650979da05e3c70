import { inTransaction } from "../db/index.ts";
import { afterFailure, emptyThrottle, giveBack, reserveAttempt, type TThrottlePolicy, type TThrottleState } from "./throttle-policy.ts";
import { lockThrottles, saveThrottles, settleSuccess } from "./throttle.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteIdleThrottles } from "./throttle.repository.ts";

export type TThrottleKey = { key: string; policy: TThrottlePolicy };

/**
 * Takes one attempt from every counter, or from none: refused when any of them is locked out or full
 * (the longest wait is reported). Runs before the password is checked, so a lockout says nothing
 * about it. Every allowed attempt is settled afterwards, as a failure or a success.
 */
export async function reserveSignInAttempt(keys: TThrottleKey[], now = new Date()): Promise<{ allowed: true } | { allowed: false; retryAfterS: number }> {
  return inTransaction(async (tx) => {
    const states = await lockThrottles(keys.map((k) => k.key), now, tx);
    const decided = keys.map((k) => ({ key: k.key, r: reserveAttempt(states.get(k.key) ?? emptyThrottle(now), now, k.policy) }));
    const refused = decided.flatMap((d) => (d.r.allowed ? [] : [d.r.retryAfterS]));
    if (refused.length) return { allowed: false, retryAfterS: Math.max(...refused) };
    await saveThrottles(decided.flatMap((d) => (d.r.allowed ? [[d.key, d.r.next] as [string, TThrottleState]] : [])), tx);
    return { allowed: true };
  });
}

/** The reserved attempt was right: `own` starts over, `others` get their slot back (see settleSuccess). */
export async function settleSuccessfulAttempt(own: string, others: string[], now = new Date()): Promise<void> {
  await settleSuccess(own, others, now);
}

/** The reserved attempt was wrong: it stays counted; a counter it filled starts its lockout now. */
export async function settleFailedAttempt(keys: TThrottleKey[], now = new Date()): Promise<void> {
  await inTransaction(async (tx) => {
    const states = await lockThrottles(keys.map((k) => k.key), now, tx);
    await saveThrottles(keys.map((k) => [k.key, afterFailure(states.get(k.key)!, now, k.policy)]), tx);
  });
}

/** The reserved attempt succeeded but starts nothing over (a passkey that signed in): each counter gets its slot back. */
export async function giveBackAttempt(keys: TThrottleKey[], now = new Date()): Promise<void> {
  if (keys.length) await settleSuccess("", keys.map((k) => k.key), now);
}

/** Gives a reserved attempt back: what it was reserved for turned out not to count. */
export async function releaseAttempt(key: string, now = new Date()): Promise<void> {
  await inTransaction(async (tx) => {
    const states = await lockThrottles([key], now, tx);
    await saveThrottles([[key, giveBack(states.get(key)!, now)]], tx);
  });
}
