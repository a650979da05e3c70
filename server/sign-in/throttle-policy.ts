/** A counter of failed sign-ins for one key (an account, an unknown identifier, or an IP). */
export type TThrottleState = {
  failures: number;
  level: number;
  lockedUntil: Date | null;
  windowStart: Date;
  windowFailures: number;
  updatedAt: Date;
};

export type TThrottlePolicy = {
  /** Attempts allowed before a lockout. */
  threshold: number;
  /** The first lockout; each further one doubles it, up to maxLockMs. */
  baseLockMs: number;
  maxLockMs: number;
  /** Failures allowed per hour whatever the lockouts (NIST SP 800-63B §5.2.2: at most 100). */
  hourlyMax: number;
  /** After this long without attempts the lockout level starts from zero again. */
  forgetMs: number;
};

const HOUR_MS = 3_600_000;

/** Per account: 5 attempts, then 30 s, 1 min, 2 min … up to 15 min; at most 100 an hour. */
export const ACCOUNT_POLICY: TThrottlePolicy = { threshold: 5, baseLockMs: 30_000, maxLockMs: 15 * 60_000, hourlyMax: 100, forgetMs: 24 * HOUR_MS };
/** Per IP: more room, since several people may share one address (an office, a mobile carrier). */
export const IP_POLICY: TThrottlePolicy = { threshold: 20, baseLockMs: 30_000, maxLockMs: 15 * 60_000, hourlyMax: 500, forgetMs: 24 * HOUR_MS };

export function emptyThrottle(now: Date): TThrottleState {
  return { failures: 0, level: 0, lockedUntil: null, windowStart: now, windowFailures: 0, updatedAt: now };
}

export type TReservation = { allowed: true; next: TThrottleState } | { allowed: false; retryAfterS: number };

const secondsUntil = (t: Date, now: Date) => Math.max(1, Math.ceil((t.getTime() - now.getTime()) / 1000));

/**
 * Counts an attempt before its password is checked, as if it failed: parallel attempts then
 * cannot exceed the threshold, since each one takes its slot under the row lock first. The attempt
 * that takes the last slot starts the lockout at once; a success undoes it (see `afterSuccess`).
 */
export function reserveAttempt(s: TThrottleState, now: Date, p: TThrottlePolicy): TReservation {
  if (s.lockedUntil && s.lockedUntil > now) return { allowed: false, retryAfterS: secondsUntil(s.lockedUntil, now) };
  const next = { ...s, updatedAt: now };
  // A lockout that has been waited out starts a new series of attempts.
  if (next.lockedUntil) Object.assign(next, { lockedUntil: null, failures: 0 });
  if (now.getTime() - s.updatedAt.getTime() > p.forgetMs) Object.assign(next, { level: 0, failures: 0 });
  if (now.getTime() - next.windowStart.getTime() >= HOUR_MS) Object.assign(next, { windowStart: now, windowFailures: 0 });
  if (next.windowFailures >= p.hourlyMax) {
    return { allowed: false, retryAfterS: secondsUntil(new Date(next.windowStart.getTime() + HOUR_MS), now) };
  }
  next.failures += 1;
  next.windowFailures += 1;
  if (next.failures >= p.threshold) {
    next.lockedUntil = new Date(now.getTime() + Math.min(p.baseLockMs * 2 ** next.level, p.maxLockMs));
    next.level += 1;
  }
  return { allowed: true, next };
}

/** The reserved attempt succeeded: it was no failure, and the series starts over. */
export function afterSuccess(s: TThrottleState, now: Date): TThrottleState {
  return { ...s, failures: 0, level: 0, lockedUntil: null, windowFailures: Math.max(0, s.windowFailures - 1), updatedAt: now };
}
