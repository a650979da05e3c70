import { verifySecret } from "../crypto/password-hash.ts";

// A hash of a random string with today's parameters: checking a password of an unknown account
// against it costs what checking a real one costs, so the answer's timing does not tell them apart.
const DUMMY_HASH = "$argon2id$v=19$m=19456,p=1,t=2$mIkDiGbEfGBhRwk6b4awFg$v2i8VFsrQqzBgbbaPUX5mGFvSBlbgM51E44ojmh5noU";

/**
 * Checks `password` against `hash`, or against a dummy when there is none. Bounded in parallel like
 * every hash of the process (verifySecret goes through server/crypto/hash-gate.ts), so a burst of
 * sign-ins waits holding promises, not 19 MiB each.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  const ok = await verifySecret(hash ?? DUMMY_HASH, password);
  return ok && hash !== null;
}
