import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import type { TGrantRow } from "./rights.repository.ts";

// The listings are read far more often than rights change: each subject's and each object's rows are
// held in process, keyed "of|<type>|<id>" and "on|<type>|<id>", and dropped in every process through
// the change bus when a grant or revoke touching them commits (a deleted account, a forced deletion of
// a definition: everything). The TTL only bounds a change made behind the service's back.
const RIGHTS_TOPIC = "rights";
const cache = keyedCache<TGrantRow[]>(RIGHTS_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 20_000 });

export const cacheKey = (dir: "of" | "on", type: string, id: string) => `${dir}|${type}|${id}`;

/** The rows of a listing key: from memory without a Promise when cached (maybe-promise.ts). */
export function readGrants(key: string, load: () => Promise<TGrantRow[]>): TMaybePromise<TGrantRow[]> {
  return cache.read(key, load);
}

/** After grants changed (no keys: possibly any): every process drops those listings. */
export async function publishRightsChange(...keys: string[]): Promise<void> {
  if (!keys.length) return publishChange(RIGHTS_TOPIC);
  for (const key of new Set(keys)) await publishChange(RIGHTS_TOPIC, key);
}
