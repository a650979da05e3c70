import * as nodeCrypto from "node:crypto";
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
  return sha256Base64url(token);
}

// crypto.hash (Node 20.12+) digests in one call, without the Hash object createHash builds (a third
// of the cost); sign-ins and refreshes hash several opaque tokens each. The engines field allows 20.9.
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: "base64url") => string }).hash;

/** SHA-256 of a UTF-8 string, base64url. */
const sha256Base64url: (s: string) => string = oneShot
  ? (s) => oneShot("sha256", s, "base64url")
  : (s) => createHash("sha256").update(s).digest("base64url");

/** Compares two strings in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
