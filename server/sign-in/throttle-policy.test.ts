import { describe, expect, it } from "vitest";
import { ACCOUNT_POLICY, afterSuccess, emptyThrottle, reserveAttempt, type TThrottleState } from "./throttle-policy.ts";

const t0 = new Date("2026-11-25T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

/** Tries `n` attempts at `now`; returns the state and how many were allowed. */
function attempt(s: TThrottleState, n: number, now: Date): { s: TThrottleState; allowed: number; retry?: number } {
  let allowed = 0;
  let retry: number | undefined;
  for (let i = 0; i < n; i++) {
    const r = reserveAttempt(s, now, ACCOUNT_POLICY);
    if (r.allowed) {
      s = r.next;
      allowed++;
    } else retry = r.retryAfterS;
  }
  return { s, allowed, retry };
}

describe("sign-in throttle policy", () => {
  it("allows the threshold, then locks for 30 s, and doubles the wait with each lockout", () => {
    let r = attempt(emptyThrottle(t0), 50, t0);
    expect(r.allowed).toBe(5);
    expect(r.retry).toBe(30);
    r = attempt(r.s, 10, at(30_000));
    expect(r.allowed).toBe(5);
    expect(r.retry).toBe(60);
    r = attempt(r.s, 10, at(90_000));
    expect(r.retry).toBe(120);
  });

  it("caps the wait at 15 minutes and the failures at 100 an hour", () => {
    let s = emptyThrottle(t0);
    let now = t0.getTime();
    for (let round = 0; round < 12; round++) {
      s = attempt(s, 5, new Date(now)).s;
      expect(s.lockedUntil!.getTime() - now).toBe(Math.min(30_000 * 2 ** round, 15 * 60_000));
      now = s.lockedUntil!.getTime();
    }
    const perHour = { ...ACCOUNT_POLICY, baseLockMs: 1, maxLockMs: 1 };
    let fast = emptyThrottle(t0);
    let allowed = 0;
    for (let i = 0; i < 500; i++) {
      const r = reserveAttempt(fast, at(i * 10), perHour);
      if (r.allowed) {
        fast = r.next;
        allowed++;
      }
    }
    expect(allowed).toBe(100);
  });

  it("a success clears the lockout its own reservation started and starts a new series", () => {
    const four = attempt(emptyThrottle(t0), 5, t0).s;
    expect(four.lockedUntil).not.toBeNull();
    const ok = afterSuccess(four, t0);
    expect(ok).toMatchObject({ failures: 0, level: 0, lockedUntil: null, windowFailures: 4 });
    expect(attempt(ok, 5, t0).allowed).toBe(5);
  });

  it("forgets the lockout level after a quiet day", () => {
    let r = attempt(emptyThrottle(t0), 5, t0);
    r = attempt(r.s, 5, at(30_000));
    expect(r.s.level).toBe(2);
    r = attempt(r.s, 1, at(2 * 86_400_000));
    expect(r.s).toMatchObject({ level: 0, failures: 1 });
  });
});
