import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";

// Attribute reads are the API's hottest path. An account (and the contact changes it awaits) is
// held in process and dropped in every process through the change bus when anything about it
// changes; writers publish after their transaction commits. The TTL only bounds a change made
// behind the service's back.
const ACCOUNT_TOPIC = "account";

export function accountCache<V>() {
  return keyedCache<V>(ACCOUNT_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 50_000 });
}

/** After a change to these accounts committed (no subjects: to many): every process drops them. */
export async function publishAccountChange(...subs: string[]): Promise<void> {
  if (subs.length === 0 || subs.length > 100) return publishChange(ACCOUNT_TOPIC);
  for (const sub of new Set(subs)) await publishChange(ACCOUNT_TOPIC, sub);
}
