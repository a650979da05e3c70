import argon2 from "argon2";
import bcrypt from "bcryptjs";
import { withHashSlot } from "./hash-gate.ts";

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): tens of milliseconds per hash on this hardware.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Stored hashes an import may bring: argon2id (ours or another system's) and bcrypt. */
// argon2 parameter order differs between implementations (node-argon2 writes m,p,t; the reference m,t,p).
export const IMPORTABLE_HASH = /^(\$argon2id\$v=19\$[mtp]=\d+(,[mtp]=\d+){2}\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+|\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53})$/;

/** argon2id of `plain`, bounded in parallel by the hash gate. */
export function hashSecret(plain: string): Promise<string> {
  return withHashSlot(() => argon2.hash(plain, OPTIONS));
}

const isBcrypt = (hash: string) => /^\$2[aby]\$/.test(hash);

/** False for a wrong secret and for a malformed stored hash alike; bounded in parallel by the hash gate. */
export function verifySecret(hash: string, plain: string): Promise<boolean> {
  return withHashSlot(async () => {
    try {
      return isBcrypt(hash) ? await bcrypt.compare(plain, hash) : await argon2.verify(hash, plain);
    } catch {
      return false;
    }
  });
}

// A hash of a random string with today's parameters: checking a secret of an unknown account or
// client against it costs what checking a real one costs, so the answer's timing does not tell them apart.
const DUMMY_HASH = "$argon2id$v=19$m=19456,p=1,t=2$mIkDiGbEfGBhRwk6b4awFg$v2i8VFsrQqzBgbbaPUX5mGFvSBlbgM51E44ojmh5noU";

/** Checks `plain` against `hash`, or against a dummy at the same cost when there is none (then false). */
export async function verifySecretOrDummy(hash: string | null, plain: string): Promise<boolean> {
  const ok = await verifySecret(hash ?? DUMMY_HASH, plain);
  return ok && hash !== null;
}

/** True when a verified hash should be replaced by one with today's algorithm and parameters. */
export function needsRehash(hash: string): boolean {
  return isBcrypt(hash) || argon2.needsRehash(hash, OPTIONS);
}
