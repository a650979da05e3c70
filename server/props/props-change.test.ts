import { describe, expect, it } from "vitest";
import { AppError } from "../errors/app-error.ts";
import { checkPropsChange } from "./props-change.ts";

const LIMITS = { maxCount: 3, maxName: 5, maxValue: 4 };
const positions = (body: unknown) => {
  try {
    checkPropsChange(body, LIMITS);
    return [];
  } catch (e) {
    return (e as AppError).details.items!.map((i) => i.pos);
  }
};

describe("checkPropsChange", () => {
  it("returns the additions and removals of a valid body", () => {
    expect(checkPropsChange({ add: { a: "x", b: 1.5, c: false }, remove: ["d"] }, LIMITS)).toEqual({ add: [["a", "x"], ["b", 1.5], ["c", false]], remove: ["d"] });
    expect(checkPropsChange(undefined, LIMITS)).toEqual({ add: [], remove: [] });
    expect(checkPropsChange({}, LIMITS)).toEqual({ add: [], remove: [] });
  });

  it("counts names and values in characters, not UTF-16 units", () => {
    expect(positions({ add: { "😀😀😀😀😀": "ёёёё" } })).toEqual([]);
    expect(positions({ add: { "😀😀😀😀😀😀": "x", ok: "ёёёёё" } })).toEqual(["add.😀😀😀😀😀😀", "add.ok"]);
  });

  it("names every problem by its property", () => {
    expect(positions({ add: { a: null, b: {}, c: "ok" } })).toEqual(["add.a", "add.b"]);
    expect(positions({ add: { a: 1, b: 2, c: 3, d: 4 } })).toEqual(["add"]);
    expect(positions({ add: { " ": 1 } })).toEqual(["add. "]);
    expect(positions({ remove: ["x", 7, ""] })).toEqual(["remove.1", "remove."]);
    expect(positions({ add: { x: 1 }, remove: ["x"] })).toEqual(["remove.x"]);
    expect(positions({ add: 1, remove: {} })).toEqual(["add", "remove"]);
    expect(positions({ adds: {} })).toEqual(["adds"]);
    expect(positions("text")).toEqual([""]);
    expect(positions({ add: { a: "x\u0000" } })).toEqual(["add.a"]);
  });
});
