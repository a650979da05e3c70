import { describe, expect, it } from "vitest";
import { checkAge, checkPassword, countNewChars, DEFAULT_POLICY, describeViolation, violationItem } from "./policy.ts";
import { ZPasswordPolicy } from "./policy.schemas.ts";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import { generatePassword } from "./generate.ts";

const policy = (p: unknown) => ZPasswordPolicy.parse(p);

describe("password policy: length", () => {
  it("requires 8 characters by default, counted as code points", () => {
    expect(checkPassword("a7#kq2!")).toEqual([{ rule: "to_short", params: { low: 8 } }]);
    expect(checkPassword("a7#kq2!x")).toEqual([]);
    expect(checkPassword("пароль🙂🙂")).toEqual([]);
    expect(checkPassword("🙂🙂🙂🙂🙂🙂🙂")).toEqual([{ rule: "to_short", params: { low: 8 } }]);
  });
  it("counts a decomposed accent with its letter (NFC)", () => {
    const decomposed = "e\u0301".repeat(7);
    expect([...decomposed].length).toBe(14);
    expect(checkPassword(decomposed)).toEqual([{ rule: "to_short", params: { low: 8 } }]);
  });
  it("accepts long passphrases without truncation and refuses only absurd lengths", () => {
    expect(checkPassword("x".repeat(64) + "!")).toEqual([]);
    expect(checkPassword("x".repeat(1024))).toEqual([]);
    expect(checkPassword("x".repeat(1025))).toEqual([{ rule: "too_long", params: { high: 1024 } }]);
  });
  it("honours a configured minimum", () => {
    expect(checkPassword("a7#kq2!x", policy({ minLength: 12 }))).toEqual([{ rule: "to_short", params: { low: 12 } }]);
  });
});

describe("password policy: composition (not_enough_groups)", () => {
  const groups = policy({
    groups: [
      { desc: "digits", class: "digit", minNumberSymbols: 2 },
      { desc: "capital letters", class: "upper" },
      { desc: "one of !@#", chars: "!@#" },
    ],
  });
  it("is off by default", () => expect(checkPassword("onlylowercaseletters")).toEqual([]));
  it("lists the groups that were not matched with their minimum", () => {
    expect(checkPassword("lowercase1letters", groups)).toEqual([
      {
        rule: "not_enough_groups",
        params: {
          no_matched_groups: [
            { desc: "digits", min_number_symbols: 2 },
            { desc: "capital letters", min_number_symbols: 1 },
            { desc: "one of !@#", min_number_symbols: 1 },
          ],
        },
      },
    ]);
    expect(checkPassword("Lowercase12letters#", groups)).toEqual([]);
  });
  it("counts any script's letters and digits", () => expect(checkPassword("Ёлка-палка٣٤!#", groups)).toEqual([]));
  it("is satisfied by minGroups of the groups", () => {
    const twoOfThree = policy({ ...groups, minGroups: 2 });
    expect(checkPassword("Lowercase12letters", twoOfThree)).toEqual([]);
    expect(checkPassword("lowercase1letters#", twoOfThree)[0]?.rule).toBe("not_enough_groups");
  });
  it("refuses a group with both or neither of class and chars", () => {
    expect(ZPasswordPolicy.safeParse({ groups: [{ desc: "x", class: "digit", chars: "1" }] }).success).toBe(false);
    expect(ZPasswordPolicy.safeParse({ groups: [{ desc: "x" }] }).success).toBe(false);
  });
});

describe("password policy: dictionaries", () => {
  it("ships some thousands of common passwords and refuses them whatever the case", () => {
    expect(COMMON_PASSWORDS.split("\n").length).toBeGreaterThan(10_000);
    expect(checkPassword("password1")).toEqual([{ rule: "in_password_dic", params: {} }]);
    expect(checkPassword("QWERTYUIOP")).toEqual([{ rule: "in_password_dic", params: {} }]);
    expect(checkPassword("йцукенгшщз")).toEqual([{ rule: "in_password_dic", params: {} }]);
  });
  it("can be turned off", () => expect(checkPassword("password1", policy({ dictionary: false }))).toEqual([]));
  it("refuses a password containing a stop word and names it", () => {
    const p = policy({ stopWords: ["Acme", "идп"] });
    expect(checkPassword("my-acme-secret-9", p)).toEqual([{ rule: "in_stop_dic", params: { stop_word: "Acme" } }]);
    expect(checkPassword("ИДП-лучший-2026", p)).toEqual([{ rule: "in_stop_dic", params: { stop_word: "идп" } }]);
    expect(checkPassword("unrelated-words", p)).toEqual([]);
  });
});

describe("password policy: change rules", () => {
  it("counts distinct new characters against the current password (not_enough_new_chars)", () => {
    expect(countNewChars("abcdefgh1", "abcdefgh")).toBe(1);
    const p = policy({ minNewChars: 3 });
    expect(checkPassword("qmwnebrv1", p, "qmwnebrv")).toEqual([{ rule: "not_enough_new_chars", params: { minNew: 3 } }]);
    expect(checkPassword("qmwnebrv123", p, "qmwnebrv")).toEqual([]);
    expect(checkPassword("qmwnebrv1", p)).toEqual([]);
  });
  it("refuses a change before the minimum age (too_young)", () => {
    const p = policy({ minAgeSec: 3600 });
    const now = new Date("2026-11-22T10:00:00Z");
    expect(checkAge(new Date("2026-11-22T09:30:00Z"), p, now)).toEqual([{ rule: "too_young", params: { minAgeInSec: 3600 } }]);
    expect(checkAge(new Date("2026-11-22T08:59:59Z"), p, now)).toEqual([]);
    expect(checkAge(null, p, now)).toEqual([]);
    expect(checkAge(new Date(now), DEFAULT_POLICY, now)).toEqual([]);
  });
  it("reports every violated rule at once", () => {
    const p = policy({ stopWords: ["monkey"], groups: [{ desc: "digits", class: "digit" }] });
    expect(checkPassword("monkeymonkey", p).map((v) => v.rule)).toEqual(["not_enough_groups", "in_stop_dic"]);
  });
});

describe("password policy: messages", () => {
  it("explains each violation in Russian and English", () => {
    const v = checkPassword("short")[0]!;
    expect(describeViolation(v, "ru")).toBe("Пароль должен содержать не менее 8 символов");
    expect(describeViolation(v, "en")).toBe("The password must be at least 8 characters long");
    for (const rule of ["in_password_history", "eq_current", "in_password_dic", "id_store"] as const) {
      expect(describeViolation({ rule, params: {} }, "en")).toMatch(/\w/);
    }
  });
  it("renders the contract's item with params.rule and the rule's params", () => {
    expect(violationItem({ rule: "too_young", params: { minAgeInSec: 60 } }, "en")).toEqual({
      error: "password_policy_violated",
      desc: "The password can be changed once every 60 seconds at most",
      pos: "password",
      params: { rule: "too_young", minAgeInSec: 60 },
    });
  });
});

describe("generated passwords", () => {
  it("satisfy the default and a demanding policy", () => {
    const strict = policy({
      minLength: 20,
      groups: [
        { desc: "digits", class: "digit", minNumberSymbols: 3 },
        { desc: "capitals", class: "upper", minNumberSymbols: 2 },
        { desc: "symbols", chars: "$&*", minNumberSymbols: 2 },
      ],
      stopWords: ["abc"],
    });
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const a = generatePassword(DEFAULT_POLICY);
      const b = generatePassword(strict);
      expect([...a].length).toBe(16);
      expect([...b].length).toBe(20);
      expect(checkPassword(a)).toEqual([]);
      expect(checkPassword(b, strict)).toEqual([]);
      seen.add(a);
    }
    expect(seen.size).toBe(50);
  });
});
