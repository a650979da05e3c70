// Plain JavaScript: the cluster primary (server/serve/cluster.mjs) counts the failures of all its
// workers with this class, before and outside Next's bundles; the workers import it from TypeScript.

/** @typedef {{ key: string, max: number }} TLimit  A counter and its limit, e.g. failures of one client id. */

/**
 * Failures per key in fixed windows, held in process. Besides failures it counts judgements under
 * way (`pending`): a slot is taken before a secret is checked and given back when it was right, so
 * of many parallel guesses at most `max` are ever checked in a window, the rest refused at once.
 * The map is bounded: when full, the key seen first goes (its window is the oldest).
 *
 * A slot may never be given back: in the cluster primary, the worker that took it may die before it
 * settles, or give up waiting for the answer. So each slot names its owner (the worker), release()
 * frees every slot of an owner that is gone, and a slot older than `pendingMs` (far longer than a
 * secret check) no longer counts: leaked slots must not add up to a lock nobody can lift.
 */
export class FailureWindows {
  /** @type {Map<string, { start: number, failures: number, pending: { at: number, owner: unknown }[] }>} */
  #entries = new Map();

  /**
   * @param {() => number} windowMs
   * @param {number} maxKeys
   * @param {() => number} now
   * @param {number} pendingMs how long a slot taken and not given back counts
   */
  constructor(windowMs, maxKeys = 20_000, now = Date.now, pendingMs = 60_000) {
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
    this.now = now;
    this.pendingMs = pendingMs;
  }

  /** The entry of `key` in the current window; a window that has passed starts again empty. */
  #current(key, create) {
    const t = this.now();
    let e = this.#entries.get(key);
    if (e && t - e.start >= this.windowMs()) {
      e.start = t;
      e.failures = 0;
    }
    if (e) e.pending = e.pending.filter((p) => t - p.at < this.pendingMs);
    if (!e && create) {
      if (this.#entries.size >= this.maxKeys) this.#entries.delete(this.#entries.keys().next().value);
      e = { start: t, failures: 0, pending: [] };
      this.#entries.set(key, e);
    }
    return e;
  }

  #secondsLeft(e) {
    return Math.max(1, Math.ceil((e.start + this.windowMs() - this.now()) / 1000));
  }

  /** Seconds until every limit has room again after reaching its failures, or 0 when none has. */
  lockedFor(limits) {
    let wait = 0;
    for (const { key, max } of limits) {
      const e = this.#current(key, false);
      if (e && e.failures >= max) wait = Math.max(wait, this.#secondsLeft(e));
    }
    return wait;
  }

  /** When the current window of `key` ends (ms since the epoch); undefined for a key without failures or judgements. */
  windowEnd(key) {
    const e = this.#current(key, false);
    return e && e.start + this.windowMs();
  }

  /**
   * Takes a slot under every limit for one judgement and returns 0; or, when one is full, the seconds to wait.
   * @param {TLimit[]} limits
   * @param {unknown} [owner] who settles it (the cluster primary: the worker)
   */
  reserve(limits, owner) {
    let wait = 0;
    for (const { key, max } of limits) {
      const e = this.#current(key, false);
      if (e && e.failures + e.pending.length >= max) wait = Math.max(wait, this.#secondsLeft(e));
    }
    const at = this.now();
    if (wait === 0) for (const { key } of limits) this.#current(key, true).pending.push({ at, owner });
    return wait;
  }

  /**
   * Ends a judgement begun with reserve() by the same owner; returns the keys whose failures reached their limit just now.
   * @param {TLimit[]} limits
   * @param {boolean} failed
   * @param {unknown} [owner]
   */
  settle(limits, failed, owner) {
    for (const { key } of limits) {
      const e = this.#current(key, false);
      if (!e) continue;
      const i = e.pending.findIndex((p) => p.owner === owner);
      if (i !== -1) e.pending.splice(i, 1);
      // A right secret leaves nothing behind (it does not clear failures: that would let a guesser
      // interleave with the real client).
      if (!failed && e.pending.length === 0 && e.failures === 0) this.#entries.delete(key);
    }
    return failed ? this.fail(limits) : [];
  }

  /** Frees every slot `owner` took and did not give back (a worker that exited); no failure is counted. */
  release(owner) {
    for (const [key, e] of this.#entries) {
      e.pending = e.pending.filter((p) => p.owner !== owner);
      if (e.pending.length === 0 && e.failures === 0) this.#entries.delete(key);
    }
  }

  /** Counts a failure under every limit; returns the keys that reached their limit just now. */
  fail(limits) {
    const reached = [];
    for (const { key, max } of limits) {
      const e = this.#current(key, true);
      e.failures += 1;
      if (e.failures === max) reached.push(key);
    }
    return reached;
  }
}
