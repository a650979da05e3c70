import { describe, expect, it } from "vitest";
import { checkAge, checkPassword, countNewChars, DEFAULT_POLICY, describeViolation, minimumLength, violationItem, type TPasswordPolicy } from "./policy.ts";
import { ZPasswordPolicy } from "./policy.schemas.ts";
import { COMMON_PASSWORDS } from "./common-passwords.ts";
import { generatePassword } from "./generate.ts";

const policy = (p: unknown) => ZPasswordPolicy.parse(p);
/** Rules other than the length, checked for an account whose second factor is on (minimum 8 by default). */
const check = (password: string, p: TPasswordPolicy = DEFAULT_POLICY, current?: string) => checkPassword(password, p, { secondFactor: true, current });
const alone = { secondFactor: false };
const withSecondFactor = { secondFactor: true };

describe("password policy: length", () => {
  it("requires 15 characters of a password that is the only factor, 8 behind a second factor (NIST 800-63B rev. 4)", () => {
    expect(checkPassword("a7#kq2!x-long-1", DEFAULT_POLICY, alone)).toEqual([]);
    expect(checkPassword("a7#kq2!x-long-", DEFAULT_POLICY, alone)).toEqual([{ rule: "to_short", params: { low: 15 } }]);
    expect(checkPassword("a7#kq2!x", DEFAULT_POLICY, alone)).toEqual([{ rule: "to_short", params: { low: 15 } }]);
    expect(checkPassword("a7#kq2!x", DEFAULT_POLICY, withSecondFactor)).toEqual([]);
    expect(checkPassword("a7#kq2!", DEFAULT_POLICY, withSecondFactor)).toEqual([{ rule: "to_short", params: { low: 8 } }]);
  });
  it("counts code points", () => {
    expect(check("пароль🙂🙂")).toEqual([]);
    expect(check("🙂🙂🙂🙂🙂🙂🙂")).toEqual([{ rule: "to_short", params: { low: 8 } }]);
    expect(checkPassword("🙂".repeat(15), DEFAULT_POLICY, alone)).toEqual([]);
  });
  it("counts a decomposed accent with its letter (NFC)", () => {
    const decomposed = "e\u0301".repeat(7);
    expect([...decomposed].length).toBe(14);
    expect(check(decomposed)).toEqual([{ rule: "to_short", params: { low: 8 } }]);
  });
  it("accepts long passphrases without truncation and refuses only absurd lengths", () => {
    expect(check("x".repeat(64) + "!")).toEqual([]);
    expect(check("x".repeat(1024))).toEqual([]);
    expect(check("x".repeat(1025))).toEqual([{ rule: "too_long", params: { high: 1024 } }]);
  });
  it("honours configured minimums; a second factor lowers the minimum, never raises it", () => {
    expect(checkPassword("a7#kq2!x", policy({ minLength: 12 }), alone)).toEqual([{ rule: "to_short", params: { low: 12 } }]);
    expect(checkPassword("a7#kq2!x", policy({ minLengthWithSecondFactor: 10 }), withSecondFactor)).toEqual([{ rule: "to_short", params: { low: 10 } }]);
    const same = policy({ minLength: 6, minLengthWithSecondFactor: 12 });
    expect(minimumLength(same, true)).toBe(6);
    expect(checkPassword("a7#kq2", same, withSecondFactor)).toEqual([]);
  });
  it("reads a policy saved before the second-factor minimum existed with its default", () => {
    expect(policy({ minLength: 10 })).toMatchObject({ minLength: 10, minLengthWithSecondFactor: 8 });
    expect(policy({})).toEqual(DEFAULT_POLICY);
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
  it("is off by default", () => expect(check("onlylowercaseletters")).toEqual([]));
  it("lists the groups that were not matched with their minimum", () => {
    expect(check("lowercase1letters", groups)).toEqual([
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
    expect(check("Lowercase12letters#", groups)).toEqual([]);
  });
  it("counts any script's letters and digits", () => expect(check("Ёлка-палка٣٤!#", groups)).toEqual([]));
  it("is satisfied by minGroups of the groups", () => {
    const twoOfThree = policy({ ...groups, minGroups: 2 });
    expect(check("Lowercase12letters", twoOfThree)).toEqual([]);
    expect(check("lowercase1letters#", twoOfThree)[0]?.rule).toBe("not_enough_groups");
  });
  it("refuses a group with both or neither of class and chars", () => {
    expect(ZPasswordPolicy.safeParse({ groups: [{ desc: "x", class: "digit", chars: "1" }] }).success).toBe(false);
    expect(ZPasswordPolicy.safeParse({ groups: [{ desc: "x" }] }).success).toBe(false);
  });
});

describe("password policy: dictionaries", () => {
  it("ships some thousands of common passwords and refuses them whatever the case", () => {
    expect(COMMON_PASSWORDS.split("\n").length).toBeGreaterThan(10_000);
    expect(check("password1")).toEqual([{ rule: "in_password_dic", params: {} }]);
    expect(check("QWERTYUIOP")).toEqual([{ rule: "in_password_dic", params: {} }]);
    expect(check("йцукенгшщз")).toEqual([{ rule: "in_password_dic", params: {} }]);
  });
  it("can be turned off", () => expect(check("password1", policy({ dictionary: false }))).toEqual([]));
  it("refuses a password containing a stop word and names it", () => {
    const p = policy({ stopWords: ["Acme", "идп"] });
    expect(check("my-acme-secret-9", p)).toEqual([{ rule: "in_stop_dic", params: { stop_word: "Acme" } }]);
    expect(check("ИДП-лучший-2026", p)).toEqual([{ rule: "in_stop_dic", params: { stop_word: "идп" } }]);
    expect(check("unrelated-words", p)).toEqual([]);
  });
});

describe("password policy: change rules", () => {
  it("counts distinct new characters against the current password (not_enough_new_chars)", () => {
    expect(countNewChars("abcdefgh1", "abcdefgh")).toBe(1);
    const p = policy({ minNewChars: 3 });
    expect(check("qmwnebrv1", p, "qmwnebrv")).toEqual([{ rule: "not_enough_new_chars", params: { minNew: 3 } }]);
    expect(check("qmwnebrv123", p, "qmwnebrv")).toEqual([]);
    expect(check("qmwnebrv1", p)).toEqual([]);
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
    expect(check("monkeymonkey", p).map((v) => v.rule)).toEqual(["not_enough_groups", "in_stop_dic"]);
  });
});

describe("password policy: messages", () => {
  it("explains each violation in Russian and English", () => {
    const v = check("short")[0]!;
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
      expect(checkPassword(a, DEFAULT_POLICY, alone)).toEqual([]);
      expect(check(b, strict)).toEqual([]);
      seen.add(a);
    }
    expect(seen.size).toBe(50);
  });
});
