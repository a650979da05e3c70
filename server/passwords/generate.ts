import { randomInt } from "node:crypto";
import { checkPassword, type TPasswordPolicy } from "./policy.ts";
import type { TCharGroup } from "./policy.schemas.ts";

// Unambiguous when read from an SMS: no 0/O, 1/l/I.
const LOWER = "abcdefghijkmnpqrstuvwxyz";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DIGITS = "23456789";
const SYMBOLS = "!#%+-=?@_";
const BASE = LOWER + UPPER + DIGITS;
const CLASS_CHARS: Record<NonNullable<TCharGroup["class"]>, string> = { lower: LOWER, upper: UPPER, letter: LOWER + UPPER, digit: DIGITS, symbol: SYMBOLS };

const pick = (chars: string[]) => chars[randomInt(chars.length)]!;

function shuffle<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/**
 * A random password the policy accepts: at least 16 characters (about 95 bits from a 57-letter
 * alphabet), the minimum number of each configured group, the rest from letters and digits.
 */
export function generatePassword(policy: TPasswordPolicy): string {
  const required = policy.groups.reduce((n, g) => n + g.minNumberSymbols, 0);
  const length = Math.min(Math.max(policy.minLength, 16, required), policy.maxLength);
  for (let attempt = 0; attempt < 100; attempt++) {
    const chars = policy.groups.flatMap((g) => {
      const from = [...(g.chars ?? CLASS_CHARS[g.class ?? "symbol"])];
      return Array.from({ length: g.minNumberSymbols }, () => pick(from));
    });
    const base = [...BASE];
    while (chars.length < length) chars.push(pick(base));
    const password = shuffle(chars).join("");
    if (checkPassword(password, policy, { secondFactor: false }).length === 0) return password;
  }
  // Only a policy whose stop words cover the whole alphabet gets here: an administrator's error.
  throw new Error("generatePassword: the password policy accepts no generated password");
}
