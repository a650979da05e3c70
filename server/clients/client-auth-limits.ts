import { recordEvent } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { FailureWindows, type TLimit } from "../oauth/token-endpoint/failure-windows.ts";
import type { TJudge } from "./clients.service.ts";

/*
 * Failed client authentications are limited per client id and per address, in process (no query on
 * the way of a right secret): each instance counts its own, so N instances admit at most N times the
 * limit. Client secrets are long random strings (or 8+ characters chosen on import); the limit bounds
 * the guessing rate and the argon2 work a stranger can cause, and that holds per instance. While a
 * key is over its limit every attempt is refused with 429, a right secret too: otherwise the answer
 * would still tell a guesser when a guess was right.
 * Two credentials are guarded: the OAuth client secret (/oauth/te, /introspect, /revoke) and the v1/v2
 * REST password (HTTP Basic). Each has its own per-client counter, so guessing one does not lock the
 * other out; the address counter is shared: one address guessing either is one guesser.
 */
const WINDOWS = Symbol.for("idp.client-auth-failures");
function failureWindows(): FailureWindows {
  const g = globalThis as { [WINDOWS]?: FailureWindows };
  return (g[WINDOWS] ??= new FailureWindows(() => getConfig().clientAuthLimits.windowS * 1000));
}

export type TGuardedCredential = "secret" | "rest_password";

function limitsOf(credential: TGuardedCredential, id: string, ip: string | undefined): TLimit[] {
  const { perClient, perIp } = getConfig().clientAuthLimits;
  const limits = [{ key: `${credential === "secret" ? "client" : "rest"}:${id.slice(0, 128)}`, max: perClient }];
  if (ip) limits.push({ key: `ip:${ip}`, max: perIp });
  return limits;
}

function throttled(wait: number): AppError {
  return new AppError("oauth.client_auth_throttled", {
    desc: `too many failed client authentications; try again in ${wait} s`,
    headers: { "retry-after": String(wait) },
  });
}

/** A key that has just reached its limit is a security event, once per window (not every refusal after it). */
async function recordLockouts(keys: string[], clientId: string, ip: string | undefined, credential: TGuardedCredential): Promise<void> {
  for (const key of keys) {
    await recordEvent("client.auth_locked_out", { clientId: clientId.slice(0, 128), ip }, { by: key.startsWith("ip:") ? "ip" : "client_id", credential, windowS: getConfig().clientAuthLimits.windowS });
  }
}

export type TClientAuthGuard = {
  /** Checks a secret in a slot of its own, so parallel guesses beyond the limit are refused unchecked (429). */
  judge: TJudge;
  /** Counts a failure that no secret check saw (an unknown or disabled client, the wrong kind of authentication). */
  failed(): Promise<void>;
};

/** The guard of one authentication attempt; 429 at once when the client id or the address is over its limit. */
export function guardClientAuth(credential: TGuardedCredential, id: string, ip: string | undefined): TClientAuthGuard {
  const limits = limitsOf(credential, id, ip);
  const windows = failureWindows();
  const locked = windows.lockedFor(limits);
  if (locked) throw throttled(locked);
  const onReached = (keys: string[]) => recordLockouts(keys, id, ip, credential);
  return {
    judge: async (check) => {
      const wait = windows.reserve(limits);
      if (wait) throw throttled(wait);
      let ok: boolean;
      try {
        ok = await check();
      } catch (e) {
        windows.settle(limits, false);
        throw e;
      }
      await onReached(windows.settle(limits, !ok));
      return ok;
    },
    failed: () => onReached(windows.fail(limits)),
  };
}
