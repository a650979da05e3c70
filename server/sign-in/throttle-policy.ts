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

/** Per account and address (or known browser): 5 attempts, then 30 s, 1 min, 2 min … up to 15 min; at most 100 an hour. */
export const ACCOUNT_POLICY: TThrottlePolicy = { threshold: 5, baseLockMs: 30_000, maxLockMs: 15 * 60_000, hourlyMax: 100, forgetMs: 24 * HOUR_MS };
/** Codes sent to one e-mail or phone by "Forgot password?": 3, then 1 min, 2 min … up to 15 min; at most 6 an hour. */
export const RECOVERY_ADDRESS_POLICY: TThrottlePolicy = { threshold: 3, baseLockMs: 60_000, maxLockMs: 15 * 60_000, hourlyMax: 6, forgetMs: 24 * HOUR_MS };
/** Recovery requests from one address, across e-mails and phones: 10, then 1 min … up to 15 min; at most 30 an hour. */
export const RECOVERY_IP_POLICY: TThrottlePolicy = { threshold: 10, baseLockMs: 60_000, maxLockMs: 15 * 60_000, hourlyMax: 30, forgetMs: 24 * HOUR_MS };
/**
 * Per account across every address: the ceiling on guessing from many addresses (NIST SP 800-63B
 * §5.2.2: at most 100 failures). A browser the account signed in from before is not held to it.
 */
export const ACCOUNT_CAP_POLICY: TThrottlePolicy = { threshold: 50, baseLockMs: 60_000, maxLockMs: 15 * 60_000, hourlyMax: 100, forgetMs: 24 * HOUR_MS };
/** Per IP: more room, since several people may share one address (an office, a mobile carrier). */
export const IP_POLICY: TThrottlePolicy = { threshold: 20, baseLockMs: 30_000, maxLockMs: 15 * 60_000, hourlyMax: 500, forgetMs: 24 * HOUR_MS };

export function emptyThrottle(now: Date): TThrottleState {
  return { failures: 0, level: 0, lockedUntil: null, windowStart: now, windowFailures: 0, updatedAt: now };
}

export type TReservation = { allowed: true; next: TThrottleState } | { allowed: false; retryAfterS: number };

const secondsUntil = (t: Date, now: Date) => Math.max(1, Math.ceil((t.getTime() - now.getTime()) / 1000));

/**
 * A reservation nobody settled this long after its last touch belongs to a process that died mid-check;
 * it then counts as the failure it was reserved as. Far longer than any password check.
 */
const UNSETTLED_MS = 60_000;

function lockFor(level: number, p: TThrottlePolicy): number {
  return Math.min(p.baseLockMs * 2 ** level, p.maxLockMs);
}

/**
 * Counts an attempt before its password is checked, as if it failed: parallel attempts then cannot
 * exceed the threshold, since each one takes its slot under the row lock first. Only failures start
 * a lockout (see `afterFailure`): while the last slots are held by attempts still being checked,
 * others wait a second, so twenty colleagues behind one office address signing in at 9:00 do not
 * lock the address out.
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
  if (next.failures >= p.threshold) {
    const idleMs = now.getTime() - s.updatedAt.getTime();
    if (idleMs <= UNSETTLED_MS) return { allowed: false, retryAfterS: 1 };
    // Reservations that never settled: a lockout from their last touch, perhaps already waited out.
    const until = new Date(s.updatedAt.getTime() + lockFor(next.level, p));
    if (until > now) return { allowed: false, retryAfterS: secondsUntil(until, now) };
    Object.assign(next, { failures: 0, level: next.level + 1 });
  }
  next.failures += 1;
  next.windowFailures += 1;
  return { allowed: true, next };
}

/** The reserved attempt failed: it stays counted, and the one that fills the threshold starts a lockout. */
export function afterFailure(s: TThrottleState, now: Date, p: TThrottlePolicy): TThrottleState {
  if (s.failures < p.threshold || (s.lockedUntil && s.lockedUntil > now)) return { ...s, updatedAt: now };
  return { ...s, lockedUntil: new Date(now.getTime() + lockFor(s.level, p)), level: s.level + 1, updatedAt: now };
}

/**
 * Gives an address its reserved slot back (a sign-up's typing mistake). A successful sign-in does the
 * same to the address, and starts the account's series over, in one statement (settleSuccess in
 * throttle.repository.ts).
 */
export function giveBack(s: TThrottleState, now: Date): TThrottleState {
  return { ...s, failures: Math.max(0, s.failures - 1), windowFailures: Math.max(0, s.windowFailures - 1), updatedAt: now };
}
