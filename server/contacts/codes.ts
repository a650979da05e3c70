import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { keyFor } from "../crypto/keys.ts";

/** Six digits from the CSPRNG: what people can type from an SMS. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The id of a confirmation, used in URLs: unguessable, so it cannot be enumerated. */
export function newState(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * A keyed hash is enough for a code that lives minutes and allows three attempts: without the key
 * the stored hash cannot be brute-forced offline, and argon2 would only slow every check down.
 * The state is mixed in so equal codes of two confirmations hash differently.
 */
export function hashCode(state: string, code: string): string {
  return createHmac("sha256", keyFor("confirmation-codes")).update(`${state}:${code}`).digest("base64url");
}

export function codeMatches(state: string, code: string, hash: string): boolean {
  const given = Buffer.from(hashCode(state, code.trim()));
  const stored = Buffer.from(hash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
