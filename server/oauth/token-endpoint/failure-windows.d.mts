/** A counter and its limit, e.g. failures of one client id. */
export type TLimit = { key: string; max: number };

export class FailureWindows {
  constructor(windowMs: () => number, maxKeys?: number, now?: () => number, pendingMs?: number);
  lockedFor(limits: TLimit[]): number;
  windowEnd(key: string): number | undefined;
  reserve(limits: TLimit[], owner?: unknown): number;
  settle(limits: TLimit[], failed: boolean, owner?: unknown): string[];
  release(owner: unknown): void;
  fail(limits: TLimit[]): string[];
}
