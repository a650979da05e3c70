import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * A bearer secret handed to a browser or a client (a session cookie, an authorization code, a
 * refresh token): 256 random bits, base64url.
 */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the database keeps of an opaque token. A plain SHA-256 is enough for 256 random bits (nothing
 * to brute-force), and needs no key that a rotation of IDP_SECRET_KEY would invalidate.
 */
export function hashOpaqueToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** Compares two strings in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
