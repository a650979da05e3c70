import { describe, expect, it } from "vitest";
import { nextStep } from "./flow-completion.ts";

describe("the step a sign-in goes to after its first method", () => {
  const secondFactor = { secondFactor: true, passwordChange: false };
  it("asks for the second factor after a password, not after a passkey (two factors at once) or a code", () => {
    expect(nextStep(["pwd"], secondFactor, false)).toBe("second_factor");
    expect(nextStep(["hwk", "user", "mfa"], secondFactor, false)).toBeUndefined();
    expect(nextStep(["swk", "user", "mfa"], secondFactor, false)).toBeUndefined();
    expect(nextStep(["pwd", "otp"], secondFactor, false)).toBeUndefined();
    // A key without the person's verification is one factor: it does not pass.
    expect(nextStep(["hwk"], secondFactor, false)).toBe("second_factor");
  });

  it("still asks for a password an administrator wants changed", () => {
    expect(nextStep(["hwk", "user", "mfa"], { secondFactor: true, passwordChange: true }, false)).toBe("password_change");
  });
});
