import { describe, expect, it } from "vitest";
import { normalizeAnswer } from "./answer-normalize.ts";

describe("normalizeAnswer", () => {
  it.each([
    ["  Мурка  ", "мурка"],
    ["МУРКА", "мурка"],
    ["Ёжик в тумане", "ежик в тумане"],
    ["STRASSE", "strasse"],
    ["straße", "strasse"],
    ["ΟΔΟΣ", "οδος"],
    ["Ｐｕｓｈｏｋ", "pushok"],
    ["first\u00A0\t\n  dog", "first dog"],
    ["zero\u200Bwidth", "zerowidth"],
    ["e\u0301clair", "éclair"],
    ["O'Brien", "o'brien"],
  ])("%j → %j", (given, expected) => {
    expect(normalizeAnswer(given)).toBe(expected);
  });

  it("keeps answers that differ in letters apart", () => {
    expect(normalizeAnswer("Мурка")).not.toBe(normalizeAnswer("Мурзик"));
    expect(normalizeAnswer("ab")).not.toBe(normalizeAnswer("a b"));
  });
});
