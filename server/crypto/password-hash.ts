import argon2 from "argon2";

// OWASP's argon2id baseline (19 MiB, 2 passes): tens of milliseconds per hash on this hardware.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(plain: string): Promise<string> {
  return argon2.hash(plain, OPTIONS);
}

/** False for a wrong secret and for a malformed stored hash alike. */
export async function verifySecret(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}
