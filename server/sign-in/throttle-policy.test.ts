import { describe, expect, it } from "vitest";
import { ACCOUNT_POLICY, afterFailure, emptyThrottle, giveBack, IP_POLICY, reserveAttempt, type TThrottlePolicy, type TThrottleState } from "./throttle-policy.ts";

const t0 = new Date("2026-11-25T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

/** `n` wrong passwords one after the other at `now`, each settled before the next. */
function wrongInTurn(s: TThrottleState, n: number, now: Date, p: TThrottlePolicy = ACCOUNT_POLICY): { s: TThrottleState; allowed: number; retry?: number } {
  let allowed = 0;
  let retry: number | undefined;
  for (let i = 0; i < n; i++) {
    const r = reserveAttempt(s, now, p);
    if (r.allowed) {
      s = afterFailure(r.next, now, p);
      allowed++;
    } else retry = r.retryAfterS;
  }
  return { s, allowed, retry };
}

/** `n` attempts arriving together: all reserved before any is settled. */
function together(s: TThrottleState, n: number, now: Date, p: TThrottlePolicy): { s: TThrottleState; allowed: number; retries: number[] } {
  let allowed = 0;
  const retries: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = reserveAttempt(s, now, p);
    if (r.allowed) {
      s = r.next;
      allowed++;
    } else retries.push(r.retryAfterS);
  }
  return { s, allowed, retries };
}

describe("sign-in throttle policy", () => {
  it("allows the threshold, then locks for 30 s, and doubles the wait with each lockout", () => {
    let r = wrongInTurn(emptyThrottle(t0), 50, t0);
    expect(r.allowed).toBe(5);
    expect(r.retry).toBe(30);
    r = wrongInTurn(r.s, 10, at(30_000));
    expect(r.allowed).toBe(5);
    expect(r.retry).toBe(60);
    r = wrongInTurn(r.s, 10, at(90_000));
    expect(r.retry).toBe(120);
  });

  it("lets parallel attempts take no more than the threshold; the failures then lock", () => {
    const r = together(emptyThrottle(t0), 50, t0, ACCOUNT_POLICY);
    expect(r.allowed).toBe(5);
    // The last slots are only held while those five are checked: the rest is told to wait briefly.
    expect(r.retries).toEqual(Array(45).fill(1));
    let s = r.s;
    for (let i = 0; i < 5; i++) s = afterFailure(s, t0, ACCOUNT_POLICY);
    expect(s.lockedUntil).toEqual(at(30_000));
    expect(reserveAttempt(s, t0, ACCOUNT_POLICY)).toEqual({ allowed: false, retryAfterS: 30 });
  });

  it("never locks an address out for parallel sign-ins that all succeed", () => {
    const r = together(emptyThrottle(t0), 30, t0, IP_POLICY);
    expect(r.allowed).toBe(20);
    expect(r.retries).toEqual(Array(10).fill(1));
    let s = r.s;
    for (let i = 0; i < 20; i++) s = giveBack(s, t0);
    expect(s).toMatchObject({ failures: 0, windowFailures: 0, lockedUntil: null });
    expect(together(s, 10, at(1_000), IP_POLICY).allowed).toBe(10);
  });

  it("caps the wait at 15 minutes and the failures at 100 an hour", () => {
    let s = emptyThrottle(t0);
    let now = t0.getTime();
    for (let round = 0; round < 12; round++) {
      s = wrongInTurn(s, 5, new Date(now)).s;
      expect(s.lockedUntil!.getTime() - now).toBe(Math.min(30_000 * 2 ** round, 15 * 60_000));
      now = s.lockedUntil!.getTime();
    }
    const perHour = { ...ACCOUNT_POLICY, baseLockMs: 1, maxLockMs: 1 };
    let fast = emptyThrottle(t0);
    let allowed = 0;
    for (let i = 0; i < 500; i++) {
      const r = wrongInTurn(fast, 1, at(i * 10), perHour);
      fast = r.s;
      allowed += r.allowed;
    }
    expect(allowed).toBe(100);
  });

  it("counts reservations a dead process never settled as failures", () => {
    const stuck = together(emptyThrottle(t0), 5, t0, ACCOUNT_POLICY).s;
    // Within a minute they may still be being checked.
    expect(reserveAttempt(stuck, at(50_000), ACCOUNT_POLICY)).toEqual({ allowed: false, retryAfterS: 1 });
    // Later they are failures whose 30-s lockout ran from their last touch: already waited out.
    const later = reserveAttempt(stuck, at(61_000), ACCOUNT_POLICY);
    expect(later.allowed).toBe(true);
    expect((later as { next: TThrottleState }).next).toMatchObject({ failures: 1, level: 1 });
  });

  it("forgets the lockout level after a quiet day", () => {
    let r = wrongInTurn(emptyThrottle(t0), 5, t0);
    r = wrongInTurn(r.s, 5, at(30_000));
    expect(r.s.level).toBe(2);
    r = wrongInTurn(r.s, 1, at(2 * 86_400_000));
    expect(r.s).toMatchObject({ level: 0, failures: 1 });
  });
});
