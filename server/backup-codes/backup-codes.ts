import { createHash, randomInt } from "node:crypto";

// The codes themselves: how they are made, typed and kept. No I/O here.

/** How many codes a set has: enough for years of lost phones, few enough to print. */
export const BACKUP_CODE_COUNT = 10;
/** Crockford's base32: no I, L, O or U, so a code read off paper is typed right. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** 16 symbols of 5 bits: 80 random bits, beyond offline search even with the stored hash. */
const LENGTH = 16;

/**
 * A new code, grouped by four for reading ("7hx2-…"). A code of digits only is drawn again: the
 * sign-in step reads digits as a generator's code (odds of one in 10^8, but never ambiguous).
 */
export function newBackupCode(): string {
  for (;;) {
    const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    if (!/^\d+$/.test(code)) return code.replace(/(.{4})(?!$)/g, "$1-");
  }
}

/** What a person typed, as it was made: case, spaces and dashes ignored, look-alike letters read as digits. */
export function normaliseBackupCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, "").replace(/o/g, "0").replace(/[il]/g, "1");
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** Whether the second step's input is meant as a backup code rather than a generator's digits. */
export function looksLikeBackupCode(typed: string): boolean {
  return /[a-z]/i.test(typed) && normaliseBackupCode(typed) !== null;
}

/** The stored form, salted with the account so equal codes of two accounts differ. */
export function hashBackupCode(userId: string, normalised: string): string {
  return createHash("sha256").update(`${userId}\0${normalised}`).digest("base64url");
}
