import { createHmac, randomBytes } from "node:crypto";
import type { TClientAuthRow } from "./clients.repository.ts";

// Client applications are read on every token request and change rarely. Entries live briefly so
// that a change made by another instance is seen within TTL_MS; changes made here invalidate at once.
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

type TState = {
  rows: Map<string, { row: TClientAuthRow | null; at: number }>;
  verified: Map<string, { digest: string; hash: string }>;
  pepper: Buffer;
};

// On globalThis: Next bundles the console's tRPC handler and /oauth/te separately, and an edit in
// the console must invalidate what the token endpoint holds.
const KEY = Symbol.for("idp.client-cache");
function state(): TState {
  const g = globalThis as { [KEY]?: TState };
  return (g[KEY] ??= { rows: new Map(), verified: new Map(), pepper: randomBytes(32) });
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

export async function cachedClient(id: string, load: (id: string) => Promise<TClientAuthRow | null>): Promise<TClientAuthRow | null> {
  const s = state();
  const hit = s.rows.get(id);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.row;
  const row = await load(id);
  bounded(s.rows, id, { row, at: Date.now() });
  return row;
}

export function invalidateClient(id: string): void {
  state().rows.delete(id);
}

/**
 * Remembers that `plain` matched `hash`, keyed by a per-process HMAC of the secret, so a client
 * presenting the same secret again skips argon2 (tens of ms). Nothing reversible is kept, and a
 * changed hash (rotation) misses the cache.
 */
export async function verifyWithCache(
  slot: string,
  hash: string,
  plain: string,
  verify: (hash: string, plain: string) => Promise<boolean>,
): Promise<boolean> {
  const s = state();
  const digest = createHmac("sha256", s.pepper).update(plain).digest("base64url");
  const hit = s.verified.get(slot);
  if (hit && hit.hash === hash && hit.digest === digest) return true;
  const ok = await verify(hash, plain);
  if (ok) bounded(s.verified, slot, { digest, hash });
  return ok;
}
