import { describe, expect, it } from "vitest";
import { derivedOnce, derivedOncePer } from "./derived-once.ts";

describe("derivedOnce", () => {
  it("derives once per object, an undefined result included, and anew for another object", () => {
    let calls = 0;
    const f = derivedOnce((o: { n: number }) => (calls++, o.n > 0 ? o.n * 2 : undefined));
    const a = { n: 2 };
    const z = { n: 0 };
    expect([f(a), f(a), f(z), f(z)]).toEqual([4, 4, undefined, undefined]);
    expect(calls).toBe(2);
    expect(f({ n: 2 })).toBe(4);
    expect(calls).toBe(3);
  });
});

describe("derivedOncePer", () => {
  it("derives once per pair, and anew when either object is replaced", () => {
    const seen: string[] = [];
    const f = derivedOncePer((a: { id: string }, b: { id: string }) => (seen.push(`${a.id}+${b.id}`), { of: `${a.id}+${b.id}` }));
    const [a1, a2, b1, b2] = [{ id: "a1" }, { id: "a2" }, { id: "b1" }, { id: "b2" }];
    const first = f(a1, b1);
    expect(f(a1, b1)).toBe(first);
    expect(f(a1, b2)).toEqual({ of: "a1+b2" });
    expect(f(a2, b1)).toEqual({ of: "a2+b1" });
    expect(f(a1, b1)).toBe(first);
    // Equal content is not the same object: a replaced cached value gets its own answer.
    expect(f({ id: "a1" }, b1)).not.toBe(first);
    expect(seen).toEqual(["a1+b1", "a1+b2", "a2+b1", "a1+b1"]);
  });

  it("remembers an undefined result like any other", () => {
    let calls = 0;
    const f = derivedOncePer((_a: object, _b: object) => void calls++);
    const [a, b] = [{}, {}];
    f(a, b);
    f(a, b);
    expect(calls).toBe(1);
  });
});
