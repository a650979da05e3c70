import { describe, expect, it } from "vitest";
import { codeAt, decodeBase32, encodeBase32, findConsecutive, matchHotpCounter, matchTotpStep, type TOtpAlgorithm, type TOtpKey } from "./otp-codes.ts";

const ascii = (s: string) => new Uint8Array(Buffer.from(s, "ascii"));

describe("RFC 4226 appendix D (HOTP, SHA1, 6 digits)", () => {
  const key: TOtpKey = { seed: ascii("12345678901234567890"), algo: "SHA1", digits: 6 };
  const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];

  it.each(expected.map((code, counter) => [counter, code]))("counter %i → %s", (counter, code) => {
    expect(codeAt(key, counter)).toBe(code);
  });

  it("finds a code ahead of the counter, and only ahead", () => {
    expect(matchHotpCounter(key, "969429", 0)).toBe(3);
    expect(matchHotpCounter(key, "755224", 1)).toBeUndefined();
    expect(matchHotpCounter(key, "520489", 0, 5)).toBeUndefined();
  });

  it("resynchronises on consecutive codes only", () => {
    expect(findConsecutive(key, ["254676", "287922", "162583"], 0)).toBe(5);
    expect(findConsecutive(key, ["254676", "162583"], 0)).toBeUndefined();
    expect(findConsecutive(key, ["254676"], 0)).toBeUndefined();
    expect(findConsecutive(key, ["254676", "2879"], 0)).toBeUndefined();
  });
});

describe("RFC 6238 appendix B (TOTP, 8 digits, 30 s)", () => {
  const seeds: Record<TOtpAlgorithm, Uint8Array> = {
    SHA1: ascii("12345678901234567890"),
    SHA256: ascii("12345678901234567890123456789012"),
    SHA512: ascii("1234567890123456789012345678901234567890123456789012345678901234"),
  };
  const table: [number, string, string, string][] = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ];

  it.each(table)("T=%i", (t, sha1, sha256, sha512) => {
    const codes = { SHA1: sha1, SHA256: sha256, SHA512: sha512 };
    for (const algo of ["SHA1", "SHA256", "SHA512"] as const) {
      const key = { seed: seeds[algo], algo, digits: 8 };
      expect(codeAt(key, Math.floor(t / 30))).toBe(codes[algo]);
      expect(matchTotpStep(key, 30, codes[algo], t * 1000)).toBe(Math.floor(t / 30));
    }
  });

  it("accepts one step either side and no further", () => {
    const key = { seed: seeds.SHA1, algo: "SHA1" as const, digits: 8 };
    const at = 1111111109 * 1000;
    const step = Math.floor(1111111109 / 30);
    expect(matchTotpStep(key, 30, "07081804", at + 30_000)).toBe(step);
    expect(matchTotpStep(key, 30, "07081804", at - 30_000)).toBe(step);
    expect(matchTotpStep(key, 30, "07081804", at + 60_000)).toBeUndefined();
    expect(matchTotpStep(key, 30, "0708 1804", at)).toBe(step);
    expect(matchTotpStep(key, 30, "7081804", at)).toBeUndefined();
    expect(matchTotpStep(key, 30, "abcdefgh", at)).toBeUndefined();
  });
});

describe("base32", () => {
  it("reads what apps write and refuses what is not base32", () => {
    const seed = ascii("12345678901234567890");
    expect(encodeBase32(seed)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(decodeBase32("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")).toEqual(seed);
    expect(decodeBase32("GEZDGNBVGY3TQOJQ====")).toEqual(ascii("1234567890"));
    expect(decodeBase32("GEZ1")).toBeUndefined();
    expect(decodeBase32("")).toBeUndefined();
  });
});
