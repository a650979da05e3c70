import { describe, expect, it } from "vitest";
import { keySchedule, LONGEST_SIGNED_TOKEN_S, type TScheduledKey } from "./key-schedule.ts";

const T0 = Date.parse("2026-11-28T10:00:00Z");
const at = (ms: number) => new Date(T0 + ms);
const MIN = 60_000;
const DAY = LONGEST_SIGNED_TOKEN_S * 1000;
const kids = (keys: TScheduledKey[]) => keys.map((k) => k.kid);

describe("keySchedule", () => {
  // A rotation at T0 with ten minutes of publication: "old" signs until T0+10min, "new" from then.
  const old: TScheduledKey = { kid: "old", signsFrom: at(-30 * DAY), retiredAt: at(10 * MIN) };
  const next: TScheduledKey = { kid: "new", signsFrom: at(10 * MIN), retiredAt: null };

  it("publishes the new key before it signs, and keeps the old one signing meanwhile", () => {
    const s = keySchedule([old, next], T0);
    expect(s.signing.kid).toBe("old");
    expect(kids(s.published)).toEqual(["old", "new"]);
    expect(s.changesAt).toBe(T0 + 10 * MIN);
  });

  it("switches at the moment the new key starts, the old one still published for its tokens", () => {
    const s = keySchedule([old, next], T0 + 10 * MIN);
    expect(s.signing.kid).toBe("new");
    expect(kids(s.published)).toEqual(["old", "new"]);
    expect(s.changesAt).toBe(T0 + 10 * MIN + DAY);
  });

  it("retires the old key from the JWKS once the last token it could have signed has expired", () => {
    expect(kids(keySchedule([old, next], T0 + 10 * MIN + DAY - 1).published)).toEqual(["old", "new"]);
    const s = keySchedule([old, next], T0 + 10 * MIN + DAY);
    expect(kids(s.published)).toEqual(["new"]);
    expect(s.changesAt).toBeUndefined();
  });

  it("lets a second rotation before the first took effect win: the pending key never signs", () => {
    const second: TScheduledKey = { kid: "newer", signsFrom: at(12 * MIN), retiredAt: null };
    const pending = { ...next, retiredAt: at(12 * MIN) };
    const rows = [{ ...old, retiredAt: at(10 * MIN) }, pending, second];
    expect(keySchedule(rows, T0 + 11 * MIN).signing.kid).toBe("new");
    expect(keySchedule(rows, T0 + 12 * MIN).signing.kid).toBe("newer");
  });

  it("a withdrawn (compromised) key is neither published nor signing, even on a clock that runs behind", () => {
    const withdrawn: TScheduledKey = { kid: "bad", signsFrom: at(-DAY), retiredAt: at(0), withdrawnAt: at(0) };
    const fresh: TScheduledKey = { kid: "fresh", signsFrom: at(0), retiredAt: null };
    for (const now of [T0, T0 - 5_000]) {
      const s = keySchedule([withdrawn, fresh], now);
      expect(s.signing.kid).toBe("fresh");
      expect(kids(s.published)).toEqual(["fresh"]);
    }
  });

  it("on a clock behind the rotation's, the key meant to sign next signs rather than none", () => {
    const retired = { ...old, retiredAt: at(0) };
    const successor: TScheduledKey = { kid: "new", signsFrom: at(0), retiredAt: null };
    expect(keySchedule([retired, successor], T0 - 2_000).signing.kid).toBe("old");
    const gone: TScheduledKey = { ...old, retiredAt: at(-1), withdrawnAt: at(-1) };
    expect(keySchedule([gone, successor], T0 - 2_000).signing.kid).toBe("new");
  });

  it("refuses to answer without a published key rather than sign with a retired one", () => {
    expect(() => keySchedule([{ kid: "gone", signsFrom: at(-3 * DAY), retiredAt: at(-2 * DAY) }], T0)).toThrow("no signing key");
  });
});
