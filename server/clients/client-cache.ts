import { createHmac, randomBytes } from "node:crypto";
import { publishChange } from "../cache/change-bus.ts";
import { keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import type { TClientAuthRow } from "./clients.repository.ts";

// Client applications are read on every token request and change rarely. A change reaches every
// process through the change bus at once; the TTL only bounds a change made directly in the database.
const CLIENT_TOPIC = "client";
const TTL_MS = 10 * 60_000;
// Dynamically registered instances are clients too, one per installation in use: room for many of
// them (an instance row is small, its parent's settings are read from the parent's entry).
const MAX_ENTRIES = 50_000;

const rows = keyedCache<TClientAuthRow | null>(CLIENT_TOPIC, { ttlMs: TTL_MS, maxEntries: MAX_ENTRIES });

// Which clients list a certificate CN: asked on every v1/v2 call by certificate that names no client,
// and otherwise a scan of the clients table. Any client's change may add or remove a CN anywhere, so
// each one empties this whole cache. CNs come from certificates the configured CA issued: few.
const CN_TOPIC = "client-cn";
const byCn = keyedCache<string[]>(CN_TOPIC, { ttlMs: TTL_MS, maxEntries: 10_000 });

/** The client's row (null: there is none), without a Promise when it is in process. */
export function cachedClient(id: string, load: (id: string) => Promise<TClientAuthRow | null>): TMaybePromise<TClientAuthRow | null> {
  return rows.read(id, load);
}

export function cachedClientIdsByCn(cn: string, load: (cn: string) => Promise<string[]>): TMaybePromise<string[]> {
  return byCn.read(cn, load);
}

/** After a change to client `id` committed (no id: to many clients): every process drops its copy. */
export async function publishClientChange(id?: string): Promise<void> {
  await Promise.all([publishChange(CLIENT_TOPIC, id), publishChange(CN_TOPIC)]);
}

type TVerified = Map<string, { digest: string; hash: string }>;
type TVerifyState = { map: TVerified; pepper: Buffer; running: Map<string, Promise<boolean>> };

// On globalThis: Next bundles each route separately, and a memo per bundle would run argon2 once per bundle.
const KEY = Symbol.for("idp.client-secrets-verified");
function verified(): TVerifyState {
  const g = globalThis as { [KEY]?: TVerifyState };
  return (g[KEY] ??= { map: new Map(), pepper: randomBytes(32), running: new Map() });
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
  const s = verified();
  const digest = createHmac("sha256", s.pepper).update(plain).digest("base64url");
  const hit = s.map.get(slot);
  if (hit && hit.hash === hash && hit.digest === digest) return true;
  // The same secret presented again while it is being checked waits for that check: a burst of
  // requests after a start costs one argon2 run, and counts as one judgement (client-auth.ts).
  const key = `${slot}\n${hash}\n${digest}`;
  const running = s.running.get(key);
  if (running) return running;
  const check = verify(hash, plain).then((ok) => {
    if (ok) {
      if (s.map.size >= MAX_ENTRIES) s.map.delete(s.map.keys().next().value!);
      s.map.set(slot, { digest, hash });
    }
    return ok;
  });
  s.running.set(key, check);
  try {
    return await check;
  } finally {
    s.running.delete(key);
  }
}
