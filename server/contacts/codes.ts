import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { keyFor, keysFor } from "../crypto/keys.ts";

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
export function hashCode(state: string, code: string, key = keyFor("confirmation-codes")): string {
  return createHmac("sha256", key).update(`${state}:${code}`).digest("base64url");
}

/** Checked under every key of the ring: a code sent just before a secret-key rotation still works. */
export function codeMatches(state: string, code: string, hash: string): boolean {
  const stored = Buffer.from(hash);
  return keysFor("confirmation-codes").some((key) => {
    const given = Buffer.from(hashCode(state, code.trim(), key));
    return given.length === stored.length && timingSafeEqual(given, stored);
  });
}
