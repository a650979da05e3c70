import { availableParallelism } from "node:os";
import { verifySecret } from "../crypto/password-hash.ts";

/**
 * A password check holds 19 MiB for tens of milliseconds. Without a bound, a burst of sign-ins would
 * queue hundreds of them on libuv's pool, each waiting with its memory and its database work done;
 * with one, at most this many run and the rest wait their turn holding nothing but a promise.
 */
const MAX_PARALLEL = Math.min(Math.max(availableParallelism(), 2), 8);

type TGate = { running: number; waiting: (() => void)[] };
const KEY = Symbol.for("idp.verification-gate");
const gate = () => ((globalThis as { [KEY]?: TGate })[KEY] ??= { running: 0, waiting: [] });

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  const g = gate();
  if (g.running >= MAX_PARALLEL) await new Promise<void>((resolve) => g.waiting.push(resolve));
  else g.running += 1;
  try {
    return await fn();
  } finally {
    // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer jump the queue.
    const next = g.waiting.shift();
    if (next) next();
    else g.running -= 1;
  }
}

// A hash of a random string with today's parameters: checking a password of an unknown account
// against it costs what checking a real one costs, so the answer's timing does not tell them apart.
const DUMMY_HASH = "$argon2id$v=19$m=19456,p=1,t=2$mIkDiGbEfGBhRwk6b4awFg$v2i8VFsrQqzBgbbaPUX5mGFvSBlbgM51E44ojmh5noU";

/** Checks `password` against `hash`, or against a dummy when there is none; bounded in parallel. */
export function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  return withSlot(async () => {
    const ok = await verifySecret(hash ?? DUMMY_HASH, password);
    return ok && hash !== null;
  });
}
