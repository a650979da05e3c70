import { describe, expect, it } from "vitest";
import { redact } from "./redact.ts";

describe("redact", () => {
  it("replaces secret-named fields at any depth and keeps the rest", () => {
    const out = redact({
      client: "svc",
      client_secret: "s",
      nested: { password: "p", otpCode: "123456", list: [{ access_token: "t", ok: 1 }] },
      Authorization: "Basic x",
    });
    expect(out).toEqual({
      client: "svc",
      client_secret: "[redacted]",
      nested: { password: "[redacted]", otpCode: "[redacted]", list: [{ access_token: "[redacted]", ok: 1 }] },
      Authorization: "[redacted]",
    });
  });

  it("keeps yes/no flags, which hold no secret, but not numbers, which may be codes", () => {
    expect(redact({ needPasswordChange: true, nested: { passwordNeedsSecondFactor: false, otp: 123456, code: "654321" } })).toEqual({
      needPasswordChange: true,
      nested: { passwordNeedsSecondFactor: false, otp: "[redacted]", code: "[redacted]" },
    });
  });
});
