import { describe, expect, it } from "vitest";
import { deriveKey, seal, unseal } from "./sealing.ts";

describe("seal/unseal", () => {
  const key = deriveKey("a-secret-key-of-at-least-32-characters", "otp-seeds");

  it("round-trips and never stores the plaintext", () => {
    const sealed = seal(key, "JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(sealed).toMatch(/^v1\./);
    expect(unseal(key, sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(seal(key, "same")).not.toBe(seal(key, "same"));
  });

  it("refuses a tampered value and a key for another purpose", () => {
    const sealed = seal(key, "secret");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(() => unseal(key, parts.join("."))).toThrow();
    expect(() => unseal(deriveKey("a-secret-key-of-at-least-32-characters", "signing-keys"), sealed)).toThrow();
  });
});
