import { MAX_PARALLEL_HASHES } from "./hash-parallelism.mjs";

/**
 * Every argon2 (and bcrypt) computation holds 19 MiB or more for tens of milliseconds on libuv's pool.
 * Unbounded, a burst of sign-ins, password changes or secret checks queues hundreds of them, each
 * with its memory taken; through this gate at most MAX_PARALLEL run and the rest wait holding a
 * promise. password-hash.ts sends all its work through it, so no caller can forget.
 */
export { MAX_PARALLEL_HASHES };

type TGate = { running: number; waiting: (() => void)[]; peak: number; done: number };
const KEY = Symbol.for("idp.hash-gate");
const gate = () => ((globalThis as { [KEY]?: TGate })[KEY] ??= { running: 0, waiting: [], peak: 0, done: 0 });

/** Runs `fn` when a slot is free; first come, first served. */
export async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  const g = gate();
  if (g.running >= MAX_PARALLEL_HASHES) await new Promise<void>((resolve) => g.waiting.push(resolve));
  else g.running += 1;
  g.peak = Math.max(g.peak, g.running);
  try {
    return await fn();
  } finally {
    g.done += 1;
    // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer jump the queue.
    const next = g.waiting.shift();
    if (next) next();
    else g.running -= 1;
  }
}

/** How many hashes run and wait now, the most that ever ran at once, and how many ran (for tests and the bench). */
export function hashGateState(): { running: number; waiting: number; peak: number; done: number } {
  const g = gate();
  return { running: g.running, waiting: g.waiting.length, peak: g.peak, done: g.done };
}
