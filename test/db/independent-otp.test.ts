import { describe, expect, it } from "vitest";
import { independentHotp, independentTotp } from "../support/independent-otp.ts";

// The codes the OTP tests check the server against must themselves be right: the RFCs' own vectors.
describe("the independent OTP implementation the tests use", () => {
  it("gives RFC 4226's HOTP values (Appendix D)", () => {
    const key = Buffer.from("12345678901234567890").toString("hex");
    expect(independentHotp(key, 0, 10, { hex: true })).toEqual(["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]);
  });

  it("gives RFC 6238's TOTP values for SHA-1, SHA-256 and SHA-512 (Appendix B)", () => {
    // The RFC's keys are the ASCII digits repeated to the hash's size, here in base32.
    const keys = { SHA1: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", SHA256: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA", SHA512: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA" } as const;
    const vectors: [number, string, string, string][] = [
      [59, "94287082", "46119246", "90693936"],
      [1111111109, "07081804", "68084774", "25091201"],
      [2000000000, "69279037", "90698825", "38618901"],
    ];
    for (const [t, sha1, sha256, sha512] of vectors) {
      const at = new Date(t * 1000);
      expect(independentTotp(keys.SHA1, { digits: 8, at })).toBe(sha1);
      expect(independentTotp(keys.SHA256, { algo: "SHA256", digits: 8, at })).toBe(sha256);
      expect(independentTotp(keys.SHA512, { algo: "SHA512", digits: 8, at })).toBe(sha512);
    }
  });
});
