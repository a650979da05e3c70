import { publishChange } from "../../cache/change-bus.ts";
import { keyedCache } from "../../cache/keyed-cache.ts";
import type { TMaybePromise } from "../../cache/maybe-promise.ts";
import { isTokenRevoked } from "./revocation.repository.ts";

// Every bearer request asks whether its token was revoked. The answer for a token id changes once at
// most (false → true), so it is held in process; a revocation reaches every process through the
// change bus at once. A token not seen before costs one indexed query, then none.
const REVOKED_TOPIC = "revoked-token";
const cache = keyedCache<boolean>(REVOKED_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 100_000 });

/** Whether the token was revoked: without a Promise when the answer is in process. */
export function isRevoked(jti: string): TMaybePromise<boolean> {
  return cache.read(jti, isTokenRevoked);
}

/** After a revocation committed: every process forgets its "not revoked" for this token. */
export function publishRevocation(jti: string): Promise<void> {
  return publishChange(REVOKED_TOPIC, jti);
}
