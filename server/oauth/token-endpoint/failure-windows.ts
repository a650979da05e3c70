/** A counter and its limit, e.g. failures of one client id. */
export type TLimit = { key: string; max: number };

type TEntry = { start: number; failures: number; pending: number };

/**
 * Failures per key in fixed windows, held in process. Besides failures it counts judgements under
 * way (`pending`): a slot is taken before a secret is checked and given back when it was right, so
 * of many parallel guesses at most `max` are ever checked in a window, the rest refused at once.
 * The map is bounded: when full, the key seen first goes (its window is the oldest).
 */
export class FailureWindows {
  private readonly entries = new Map<string, TEntry>();

  constructor(
    private readonly windowMs: () => number,
    private readonly maxKeys = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entry of `key` in the current window; a window that has passed starts again empty. */
  private current(key: string, create: boolean): TEntry | undefined {
    const t = this.now();
    let e = this.entries.get(key);
    if (e && t - e.start >= this.windowMs()) {
      e.start = t;
      e.failures = 0;
    }
    if (!e && create) {
      if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
      e = { start: t, failures: 0, pending: 0 };
      this.entries.set(key, e);
    }
    return e;
  }

  private secondsLeft(e: TEntry): number {
    return Math.max(1, Math.ceil((e.start + this.windowMs() - this.now()) / 1000));
  }

  /** Seconds until every limit has room again after reaching its failures, or 0 when none has. */
  lockedFor(limits: TLimit[]): number {
    let wait = 0;
    for (const { key, max } of limits) {
      const e = this.current(key, false);
      if (e && e.failures >= max) wait = Math.max(wait, this.secondsLeft(e));
    }
    return wait;
  }

  /** Takes a slot under every limit for one judgement and returns 0; or, when one is full, the seconds to wait. */
  reserve(limits: TLimit[]): number {
    let wait = 0;
    for (const { key, max } of limits) {
      const e = this.current(key, false);
      if (e && e.failures + e.pending >= max) wait = Math.max(wait, this.secondsLeft(e));
    }
    if (wait === 0) for (const { key } of limits) this.current(key, true)!.pending += 1;
    return wait;
  }

  /** Ends a judgement begun with reserve(); returns the keys whose failures reached their limit just now. */
  settle(limits: TLimit[], failed: boolean): string[] {
    for (const { key } of limits) {
      const e = this.entries.get(key);
      if (!e) continue;
      if (e.pending > 0) e.pending -= 1;
      // A right secret leaves nothing behind (it does not clear failures: that would let a guesser
      // interleave with the real client).
      if (!failed && e.pending === 0 && e.failures === 0) this.entries.delete(key);
    }
    return failed ? this.fail(limits) : [];
  }

  /** Counts a failure under every limit; returns the keys that reached their limit just now. */
  fail(limits: TLimit[]): string[] {
    const reached: string[] = [];
    for (const { key, max } of limits) {
      const e = this.current(key, true)!;
      e.failures += 1;
      if (e.failures === max) reached.push(key);
    }
    return reached;
  }
}
