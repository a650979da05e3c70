
/*
 * Every bearer request verifies its token, and the ES256 signature check was the largest single cost
 * of a cached account read (~0.19 ms of ~1.7 ms of server CPU, bench/README.md). A token's signature
 * and claims check out the same way every time, so the outcome is remembered per token until the
 * token expires. The caller still checks expiry and revocation on every request, and re-verifies a
 * token whose signing key has left the key set.
 *
 * Entries are keyed by the whole token: a signature must never vouch for another payload, and an
 * exact match guarantees that without any digest. The key used to be the token's SHA-256, so that no
 * token stayed in memory after its request; hashing then cost 7-9 µs of a ~180 µs read (a fifth of
 * what a read costs beyond the trivial route). Holding the tokens adds nothing for someone who can
 * read this process's memory: the private signing key is in it, and with it any token. They are
 * never written anywhere, and leave with their entry.
 *
 * The map's key is the token's last characters (its signature's), and the whole token is compared
 * on a hit: a Map hashes its key on every lookup, and a token arrives as a fresh string of 500-700
 * characters each request (hashing it cost ~1.8 µs in a microbenchmark, the comparison ~0.35).
 */

const MAX_ENTRIES = 20_000;

export type TVerifiedToken<C> = { claims: C; kid: string };

const KEY_CHARS = 32;
const keyOf = (token: string) => token.slice(-KEY_CHARS);

type TEntry = { token: string; verified: TVerifiedToken<unknown> };

// On globalThis: Next bundles each route separately, and a map per bundle would verify once per bundle.
const KEY = Symbol.for("idp.verified-tokens");
function entries(): Map<string, TEntry> {
  const holder = globalThis as { [KEY]?: Map<string, TEntry> };
  return (holder[KEY] ??= new Map());
}

export function recallVerified<C>(token: string): TVerifiedToken<C> | undefined {
  const entry = entries().get(keyOf(token));
  return entry && entry.token === token ? (entry.verified as TVerifiedToken<C>) : undefined;
}

export function rememberVerified<C>(token: string, verified: TVerifiedToken<C>): void {
  const map = entries();
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
  map.set(keyOf(token), { token, verified });
}

/** Forgets `token`, and only it: another token that ends the same (a forgery) leaves the entry be. */
export function forgetVerified(token: string): void {
  const map = entries();
  const key = keyOf(token);
  if (map.get(key)?.token === token) map.delete(key);
}
