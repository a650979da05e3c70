import { describe, expect, it } from "vitest";
import { FailureWindows } from "./failure-windows.ts";

function windows(maxKeys = 100) {
  const clock = { t: 1_000_000 };
  return { clock, w: new FailureWindows(() => 10_000, maxKeys, () => clock.t) };
}

const client = (max = 3) => [{ key: "client:a", max }];

describe("FailureWindows", () => {
  it("locks a key once its failures reach the limit, until its window has passed", () => {
    const { clock, w } = windows();
    expect(w.fail(client())).toEqual([]);
    w.fail(client());
    expect(w.lockedFor(client())).toBe(0);
    expect(w.fail(client())).toEqual(["client:a"]);
    clock.t += 4_000;
    expect(w.lockedFor(client())).toBe(6);
    clock.t += 6_000;
    expect(w.lockedFor(client())).toBe(0);
  });

  it("admits at most the limit of parallel judgements, and a right secret gives its slot back", () => {
    const { w } = windows();
    expect([1, 2, 3, 4, 5].map(() => w.reserve(client()))).toEqual([0, 0, 0, 10, 10]);
    expect(w.settle(client(), false)).toEqual([]);
    expect(w.reserve(client())).toBe(0);
    w.settle(client(), true);
    w.settle(client(), true);
    expect(w.settle(client(), true)).toEqual(["client:a"]);
    expect(w.lockedFor(client())).toBe(10);
  });

  it("does not clear failures on success, and locks by the strictest of several limits", () => {
    const { w } = windows();
    const both = [...client(5), { key: "ip:1", max: 2 }];
    w.fail(both);
    expect(w.reserve(both)).toBe(0);
    w.settle(both, false);
    w.fail(both);
    expect(w.lockedFor(both)).toBe(10);
    expect(w.lockedFor(client(5))).toBe(0);
  });

  it("stays within its number of keys", () => {
    const { w } = windows(2);
    w.fail([{ key: "a", max: 1 }]);
    w.fail([{ key: "b", max: 1 }]);
    w.fail([{ key: "c", max: 1 }]);
    expect(w.lockedFor([{ key: "a", max: 1 }])).toBe(0);
    expect(w.lockedFor([{ key: "c", max: 1 }])).toBe(10);
  });
});
