import { publishChange } from "../../cache/change-bus.ts";
import { keyedCache } from "../../cache/keyed-cache.ts";
import { andThen, type TMaybePromise } from "../../cache/maybe-promise.ts";
import { findCutoffs } from "./token-cutoffs.repository.ts";

// A session reset, a device removal or a consent revocation must make older tokens fail at once on
// every process, without a query per bearer request: each process holds every user's cutoffs it has
// seen (one indexed read the first time), and the change bus drops a user's entry everywhere when
// they move. A user without cutoffs is cached as an empty map, so the steady state reads nothing.
const CUTOFF_TOPIC = "token-cutoff";
const cache = keyedCache<Map<string, Date>>(CUTOFF_TOPIC, { ttlMs: 10 * 60_000, maxEntries: 100_000 });

/**
 * True when a user-mode token was issued before its cutoff. `iat` has one-second precision, so a
 * token of the very second of the cutoff counts as older: refusing one fresh token costs a new
 * sign-in, accepting an old one would defeat the reset. A session that starts after the cutoff in
 * that same second gets a cutoff of its own at the start of the second, as it has no older token
 * (keepNewSessionClearOfCutoff): a password changed at the sign-in's own step would otherwise make
 * the very session it leads to fail at once.
 */
export function isCutOff(userId: string, sessionId: string | undefined, iat: number): TMaybePromise<boolean> {
  return andThen(cache.read(userId, findCutoffs), (cutoffs) => cutOffBy(cutoffs, sessionId, iat));
}

function cutOffBy(cutoffs: Map<string, Date>, sessionId: string | undefined, iat: number): boolean {
  const notBefore = (sessionId !== undefined ? cutoffs.get(sessionId) : undefined) ?? cutoffs.get("");
  return notBefore !== undefined && iat * 1000 < notBefore.getTime();
}

/** The user-wide cutoff of `userId` ("every token issued before"), if any: from the same cache. */
export function userWideCutoff(userId: string): TMaybePromise<Date | undefined> {
  return andThen(cache.read(userId, findCutoffs), (cutoffs) => cutoffs.get(""));
}

/** After cutoffs of `userId` moved (committed): every process reads them again. */
export function publishCutoffs(userId: string): Promise<void> {
  return publishChange(CUTOFF_TOPIC, userId);
}
