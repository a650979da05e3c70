import { publishChange } from "../../cache/change-bus.ts";
import { keyedCache } from "../../cache/keyed-cache.ts";
import { isTokenRevoked } from "./revocation.repository.ts";

// Every bearer request asks whether its token was revoked. The answer for a token id changes once at
// most (false → true), so it is held in process; a revocation reaches every process through the
// change bus at once. A token not seen before costs one indexed query, then none.
const REVOKED_TOPIC = "revoked-token";
const cache = keyedCache<boolean>(REVOKED_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 100_000 });

export function isRevoked(jti: string): Promise<boolean> {
  return cache.get(jti, isTokenRevoked);
}

/** isRevoked() when the answer is in process (undefined: ask isRevoked), without a Promise. */
export function revokedInProcess(jti: string): boolean | undefined {
  return cache.peek(jti);
}

/** After a revocation committed: every process forgets its "not revoked" for this token. */
export function publishRevocation(jti: string): Promise<void> {
  return publishChange(REVOKED_TOPIC, jti);
}
