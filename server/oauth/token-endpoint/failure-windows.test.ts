import { describe, expect, it } from "vitest";
import { FailureWindows } from "./failure-windows.mjs";

function windows(maxKeys = 100, pendingMs = 30_000) {
  const clock = { t: 1_000_000 };
  return { clock, w: new FailureWindows(() => 10_000, maxKeys, () => clock.t, pendingMs) };
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

  it("frees the slots of an owner that is gone (a worker that died between reserve and settle), counting no failure", () => {
    const { w } = windows();
    expect([1, 2, 3].map(() => w.reserve(client(), "worker 1"))).toEqual([0, 0, 0]);
    expect(w.reserve(client(), "worker 2")).toBe(10);
    w.release("worker 1");
    expect(w.reserve(client(), "worker 2")).toBe(0);
    expect(w.lockedFor(client())).toBe(0);
    // A slot is given back by the owner that took it, not by another.
    expect(w.reserve(client(), "worker 3")).toBe(0);
    w.settle(client(), false, "worker 2");
    w.release("worker 3");
    expect([1, 2, 3, 4].map(() => w.reserve(client(), "worker 4"))).toEqual([0, 0, 0, 10]);
  });

  it("stops counting a slot never given back once it is older than the ageing limit", () => {
    const { clock, w } = windows(100, 30_000);
    expect([1, 2, 3].map(() => w.reserve(client(), "lost"))).toEqual([0, 0, 0]);
    expect(w.reserve(client(), "other")).toBe(10);
    // Slots outlive the window (a judgement may straddle its end) until they age out.
    clock.t += 10_000;
    expect(w.reserve(client(), "other")).toBe(10);
    clock.t += 20_000;
    expect([1, 2, 3, 4].map(() => w.reserve(client(), "other"))).toEqual([0, 0, 0, 10]);
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

  it("tells when a key's window ends, which is when its lock lifts (what the cluster primary announces)", () => {
    const { clock, w } = windows();
    expect(w.windowEnd("client:a")).toBeUndefined();
    const start = clock.t;
    clock.t += 1_000;
    w.fail(client(1));
    expect(w.windowEnd("client:a")).toBe(start + 1_000 + 10_000);
    clock.t += 10_000;
    expect(w.lockedFor(client(1))).toBe(0);
  });
});
