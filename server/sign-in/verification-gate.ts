import { verifySecretOrDummy } from "../crypto/password-hash.ts";

/**
 * Checks `password` against `hash`, or against a dummy when there is none. Bounded in parallel like
 * every hash of the process (verifySecret goes through server/crypto/hash-gate.ts), so a burst of
 * sign-ins waits holding promises, not 19 MiB each.
 */
export function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  return verifySecretOrDummy(hash, password);
}
