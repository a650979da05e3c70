import type { TAccountStateView } from "./account-state.schemas.ts";

/*
 * The account state machine (docs/guides/account-security.md):
 *   initial ──first sign-in──▶ active (checkedOn = that sign-in, renewed by each one)
 *   initial | active ──no sign-in for the period (from checkedOn, or from creation while initial)──▶ inactivityLock (on)
 *   inactivityLock ──administrator unlocks──▶ active (checkedOn = the unlock)
 *   any ──POST …/state {name: untouchable, till?}──▶ untouchable (shown over the state beneath; a lock is lifted)
 *   untouchable ──till passes, or till = now──▶ the state beneath; the period then counts from till at the earliest
 * The period is checked at sign-in (checkAccountUsable, recordSignedIn) and by the periodic sweep.
 */

export type TStateName = "initial" | "active" | "inactivityLock";

/** What is stored per account; an account without a row is INITIAL_STATE. */
export type TStateRow = {
  name: TStateName;
  checkedOn: Date | null;
  lockedOn: Date | null;
  untouchable: boolean;
  /** With `untouchable`: its end (null: forever). Without: when an exemption ended, if one did. */
  untouchableTill: Date | null;
};

// Shared by every account without a state row: frozen, as cached values are never changed in place.
export const INITIAL_STATE: TStateRow = Object.freeze({ name: "initial", checkedOn: null, lockedOn: null, untouchable: false, untouchableTill: null });

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export function isUntouchable(s: TStateRow, now: Date): boolean {
  return s.untouchable && (s.untouchableTill === null || s.untouchableTill > now);
}

/** Since when the account counts as inactive: its last sign-in (its creation while initial), or the end of an exemption if later. */
export function inactiveSince(s: TStateRow, createdAt: Date): Date {
  const since = s.checkedOn ?? createdAt;
  return s.untouchableTill && s.untouchableTill > since ? s.untouchableTill : since;
}

/** Whether the inactivity rule locks the account now; never when the lock is off (lockAfterS = 0). */
export function isLockDue(s: TStateRow, createdAt: Date, now: Date, lockAfterS: number): boolean {
  if (lockAfterS <= 0 || s.name === "inactivityLock" || isUntouchable(s, now)) return false;
  return now.getTime() - inactiveSince(s, createdAt).getTime() >= lockAfterS * 1000;
}

/**
 * Whether viewOf(s, now) is the same at every moment: no exemption that ends, no date that falls
 * back to now. Such a view can be made once per row.
 */
export function isTimeless(s: TStateRow): boolean {
  if (s.untouchable) return s.untouchableTill === null;
  if (s.name === "active") return s.checkedOn !== null;
  if (s.name === "inactivityLock") return s.lockedOn !== null;
  return true;
}

/** The contract's state object. */
export function viewOf(s: TStateRow, now: Date): TAccountStateView {
  if (isUntouchable(s, now)) return s.untouchableTill ? { name: "untouchable", till: unix(s.untouchableTill) } : { name: "untouchable" };
  if (s.name === "active") return { name: "active", checkedOn: unix(s.checkedOn ?? now) };
  if (s.name === "inactivityLock") return { name: "inactivityLock", on: unix(s.lockedOn ?? now) };
  return { name: "initial" };
}
