import { createHash } from "node:crypto";

/*
 * Every bearer request verifies its token, and the ES256 signature check was the largest single cost
 * of a cached account read (~0.19 ms of ~1.7 ms of server CPU, bench/README.md). A token's signature
 * and claims check out the same way every time, so the outcome is remembered per token until the
 * token expires. The caller still checks expiry and revocation on every request, and re-verifies a
 * token whose signing key has left the key set. Entries are keyed by the token's SHA-256: the whole
 * token is the key (a signature must never vouch for another payload), yet no bearer token outlives
 * its request in memory.
 */

const MAX_ENTRIES = 20_000;

export type TVerifiedToken<C> = { claims: C; kid: string };

// On globalThis: Next bundles each route separately, and a map per bundle would verify once per bundle.
const KEY = Symbol.for("idp.verified-tokens");
function entries(): Map<string, TVerifiedToken<unknown>> {
  const holder = globalThis as { [KEY]?: Map<string, TVerifiedToken<unknown>> };
  return (holder[KEY] ??= new Map());
}

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export function recallVerified<C>(digest: string): TVerifiedToken<C> | undefined {
  return entries().get(digest) as TVerifiedToken<C> | undefined;
}

export function rememberVerified<C>(digest: string, verified: TVerifiedToken<C>): void {
  const map = entries();
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(digest, verified);
}

export function forgetVerified(digest: string): void {
  entries().delete(digest);
}
