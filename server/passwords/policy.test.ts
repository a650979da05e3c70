import { describe, expect, it } from "vitest";
import { checkPassword, describeViolation } from "./policy.ts";

describe("password policy", () => {
  it("requires 8 characters by default, counted as code points", () => {
    expect(checkPassword("1234567")).toEqual([{ rule: "to_short", params: { low: 8 } }]);
    expect(checkPassword("12345678")).toEqual([]);
    expect(checkPassword("пароль🙂🙂")).toEqual([]);
    expect(checkPassword("🙂🙂🙂🙂🙂🙂🙂")).toEqual([{ rule: "to_short", params: { low: 8 } }]);
  });
  it("accepts long passphrases and refuses only absurd lengths", () => {
    expect(checkPassword("x".repeat(64))).toEqual([]);
    expect(checkPassword("x".repeat(1025))).toEqual([{ rule: "too_long", params: { high: 1024 } }]);
  });
  it("explains a violation in Russian and English", () => {
    const v = checkPassword("short")[0]!;
    expect(describeViolation(v, "ru")).toBe("Пароль должен содержать не менее 8 символов");
    expect(describeViolation(v, "en")).toBe("The password must be at least 8 characters long");
  });
});
