import { describe, expect, it } from "vitest";
import { INITIAL_STATE, inactiveSince, isLockDue, isTimeless, isUntouchable, viewOf, type TStateRow } from "./account-state-rules.ts";

const DAY_MS = 86_400_000;
const T0 = new Date("2026-01-01T00:00:00Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY_MS);
const PERIOD = 30 * 86_400;
const active = (days: number, more: Partial<TStateRow> = {}): TStateRow => ({ ...INITIAL_STATE, name: "active", checkedOn: at(days), ...more });

describe("the inactivity rule", () => {
  it("counts from the last sign-in, or from creation while initial", () => {
    expect(isLockDue(active(10), T0, at(39), PERIOD)).toBe(false);
    expect(isLockDue(active(10), T0, at(40), PERIOD)).toBe(true);
    expect(isLockDue(INITIAL_STATE, at(5), at(34), PERIOD)).toBe(false);
    expect(isLockDue(INITIAL_STATE, at(5), at(35), PERIOD)).toBe(true);
  });

  it("never locks when off, twice, or while untouchable; after an exemption counts from its end", () => {
    expect(isLockDue(active(0), T0, at(1000), 0)).toBe(false);
    expect(isLockDue({ ...active(0), name: "inactivityLock", lockedOn: at(31) }, T0, at(1000), PERIOD)).toBe(false);
    expect(isLockDue(active(0, { untouchable: true }), T0, at(1000), PERIOD)).toBe(false);
    expect(isLockDue(active(0, { untouchable: true, untouchableTill: at(50) }), T0, at(49), PERIOD)).toBe(false);
    expect(isLockDue(active(0, { untouchable: true, untouchableTill: at(50) }), T0, at(79), PERIOD)).toBe(false);
    expect(isLockDue(active(0, { untouchable: true, untouchableTill: at(50) }), T0, at(80), PERIOD)).toBe(true);
    expect(inactiveSince(active(60, { untouchableTill: at(50) }), T0)).toEqual(at(60));
  });

  it("an exemption is in force until its till, for ever without one", () => {
    expect(isUntouchable({ ...INITIAL_STATE, untouchable: true }, at(99_999))).toBe(true);
    expect(isUntouchable({ ...INITIAL_STATE, untouchable: true, untouchableTill: at(2) }, at(1))).toBe(true);
    expect(isUntouchable({ ...INITIAL_STATE, untouchable: true, untouchableTill: at(2) }, at(2))).toBe(false);
    expect(isUntouchable({ ...INITIAL_STATE, untouchable: false, untouchableTill: at(2) }, at(1))).toBe(false);
  });
});

describe("viewOf: the contract's state object", () => {
  const unix = (d: Date) => d.getTime() / 1000;
  it.each<[TStateRow, object]>([
    [INITIAL_STATE, { name: "initial" }],
    [active(3), { name: "active", checkedOn: unix(at(3)) }],
    [{ ...active(3), name: "inactivityLock", lockedOn: at(40) }, { name: "inactivityLock", on: unix(at(40)) }],
    [active(3, { untouchable: true }), { name: "untouchable" }],
    [active(3, { untouchable: true, untouchableTill: at(9) }), { name: "untouchable", till: unix(at(9)) }],
    [active(3, { untouchable: true, untouchableTill: at(4) }), { name: "active", checkedOn: unix(at(3)) }],
  ])("%o → %o", (row, view) => {
    expect(viewOf(row, at(5))).toEqual(view);
  });

  it("is timeless (the same view at any moment) unless an exemption ends or a date is missing", () => {
    const rows: TStateRow[] = [
      INITIAL_STATE,
      active(3),
      { ...active(3), name: "inactivityLock", lockedOn: at(40) },
      active(3, { untouchable: true }),
      active(3, { untouchable: true, untouchableTill: at(9) }),
      active(3, { untouchable: false, untouchableTill: at(4) }),
      { ...INITIAL_STATE, name: "active", checkedOn: null },
      { ...INITIAL_STATE, name: "inactivityLock", lockedOn: null },
    ];
    for (const row of rows) {
      const views = [at(0), at(5), at(10), at(1000)].map((now) => viewOf(row, now));
      const same = views.every((v) => JSON.stringify(v) === JSON.stringify(views[0]));
      expect(isTimeless(row), JSON.stringify(row)).toBe(same);
    }
  });
});
