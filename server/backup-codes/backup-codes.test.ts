import { describe, expect, it } from "vitest";
import { hashBackupCode, looksLikeBackupCode, newBackupCode, normaliseBackupCode } from "./backup-codes.ts";

describe("backup codes", () => {
  it("are 16 symbols of Crockford's base32 in groups of four, never digits only", () => {
    const codes = Array.from({ length: 500 }, newBackupCode);
    for (const c of codes) {
      expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
      expect(c.replace(/-/g, "")).not.toMatch(/^\d+$/);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("are read as typed: case, spaces, dashes and look-alike letters do not matter", () => {
    const code = "7hx2-k9qa-m4rt-0b1z";
    expect(normaliseBackupCode(code)).toBe("7hx2k9qam4rt0b1z");
    expect(normaliseBackupCode(" 7HX2 K9QA M4RT OB1Z ")).toBe("7hx2k9qam4rt0b1z");
    expect(normaliseBackupCode("7hx2-k9qa-m4rt-0bIz")).toBe("7hx2k9qam4rt0b1z");
    expect(normaliseBackupCode("7hx2-k9qa-m4rt-0b1")).toBeNull();
    expect(normaliseBackupCode("7hx2-k9qa-m4rt-0b1u")).toBeNull();
  });

  it("are told from a generator's digits", () => {
    expect(looksLikeBackupCode("7hx2-k9qa-m4rt-0b1z")).toBe(true);
    expect(looksLikeBackupCode("123456")).toBe(false);
    expect(looksLikeBackupCode("1234567890123456")).toBe(false);
    expect(looksLikeBackupCode("hello")).toBe(false);
  });

  it("hash differently for two accounts", () => {
    expect(hashBackupCode("a", "7hx2k9qam4rt0b1z")).not.toBe(hashBackupCode("b", "7hx2k9qam4rt0b1z"));
    expect(hashBackupCode("a", "7hx2k9qam4rt0b1z")).toBe(hashBackupCode("a", "7hx2k9qam4rt0b1z"));
  });
});
