import { recordEvent } from "../audit/audit.service.ts";
import { askPrimary, inClusterWorker, receiveLocks, tellPrimary } from "../cluster/primary-link.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { FailureWindows, type TLimit } from "../oauth/token-endpoint/failure-windows.mjs";
import type { TJudge } from "./clients.service.ts";

/*
 * Failed client authentications are limited per client id and per address, in memory (no query on
 * the way of a right secret): each instance (a machine, or a process without IDP_WORKERS) counts its
 * own, so N instances admit at most N times the limit. The workers of one machine count together in
 * their cluster primary (server/serve/cluster.mjs): a machine admits the limit whatever its number of
 * cores, at the cost of an IPC round trip per secret checked with argon2 (none for a secret verified
 * before). Client secrets are long random strings (or 8+ characters chosen on import); the limit
 * bounds the guessing rate and the argon2 work a stranger can cause, and that holds per instance.
 * Failures count per (client id, address) and per address, never per client id alone: a counter of
 * the id alone would let anyone lock a confidential client (the console's own among them) out by
 * sending wrong secrets under its id. While a key is over its limit every attempt under it is refused
 * with 429, a right secret too, so the answer never tells that guesser when a guess was right; the
 * owner, calling from its own address, is not slowed. Without a known address (a transport that does
 * not say) the id alone is all there is to count.
 * Guessing from many addresses is still bounded per client id, ten times higher, but only where a
 * secret must be checked with argon2: a secret this process verified before answers from memory and
 * never meets that counter, so its owner keeps working while strangers exhaust it.
 * Two credentials are guarded: the OAuth client secret (/oauth/te, /introspect, /revoke) and the v1/v2
 * REST password (HTTP Basic). Each has its own (client, address) counter, so guessing one does not
 * lock the other out; the address counter is shared: one address guessing either is one guesser.
 */
type TWindows = {
  lockedFor(limits: TLimit[]): Promise<number>;
  reserve(limits: TLimit[]): Promise<number>;
  settle(limits: TLimit[], failed: boolean): Promise<string[]>;
  fail(limits: TLimit[]): Promise<string[]>;
};

const WINDOWS = Symbol.for("idp.client-auth-failures");
function failureWindows(): TWindows {
  const g = globalThis as { [WINDOWS]?: TWindows };
  return (g[WINDOWS] ??= inClusterWorker() ? primaryWindows() : localWindows());
}

function localWindows(): TWindows {
  const w = new FailureWindows(() => getConfig().clientAuthLimits.windowS * 1000);
  return {
    lockedFor: async (limits) => w.lockedFor(limits),
    reserve: async (limits) => w.reserve(limits),
    settle: async (limits, failed) => w.settle(limits, failed),
    fail: async (limits) => w.fail(limits),
  };
}

/**
 * The machine's windows, kept by the cluster primary. Locked keys are mirrored here as the primary
 * announces them, so the check every authentication starts with costs no message: a client whose
 * right secret this worker has verified before authenticates without asking the primary anything
 * (judgements, and so reservations, happen only when a secret is not known to be right).
 */
function primaryWindows(): TWindows {
  const locks = new Map<string, number>();
  receiveLocks((announced) => {
    for (const { key, until } of announced) {
      if (locks.size >= MAX_MIRRORED_LOCKS) locks.delete(locks.keys().next().value!);
      locks.set(key, until);
    }
  });
  const windowMs = () => getConfig().clientAuthLimits.windowS * 1000;
  const ask = <T>(method: string, limits: TLimit[], failed?: boolean) => askPrimary<T>("authWindows", { method, limits, failed, windowMs: windowMs() });
  return {
    lockedFor: async (limits) => {
      let wait = 0;
      const now = Date.now();
      for (const { key } of limits) {
        const until = locks.get(key);
        if (until === undefined) continue;
        if (until > now) wait = Math.max(wait, Math.ceil((until - now) / 1000));
        else locks.delete(key);
      }
      return wait;
    },
    reserve: (limits) => ask("reserve", limits),
    settle: async (limits, failed) => {
      if (failed) return ask("settle", limits, true);
      // A right secret frees its slot without waiting: the channel keeps the order of messages, so
      // the next reservation of this worker sees the slot free.
      tellPrimary("authWindows", { method: "settle", limits, failed: false, windowMs: windowMs() });
      return [];
    },
    fail: (limits) => ask("fail", limits),
  };
}

const MAX_MIRRORED_LOCKS = 20_000;

export type TGuardedCredential = "secret" | "rest_password";

const PER_ID_FACTOR = 10;

/** The guesser's counters, which refuse every attempt once full; and the id's own, which only slows checks. */
function limitsOf(credential: TGuardedCredential, id: string, ip: string | undefined): { guesser: TLimit[]; checks: TLimit[] } {
  const { perClient, perIp } = getConfig().clientAuthLimits;
  const client = `${credential === "secret" ? "client" : "rest"}:${id.slice(0, 128)}`;
  if (!ip) {
    const alone = [{ key: client, max: perClient }];
    return { guesser: alone, checks: alone };
  }
  const guesser = [{ key: `${client}@${ip}`, max: perClient }, { key: `ip:${ip}`, max: perIp }];
  return { guesser, checks: [...guesser, { key: client, max: perClient * PER_ID_FACTOR }] };
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
    await recordEvent("client.auth_locked_out", { clientId: clientId.slice(0, 128), ip }, { by: key.startsWith("ip:") ? "ip" : key.includes("@") ? "client_id_and_ip" : "client_id", credential, windowS: getConfig().clientAuthLimits.windowS });
  }
}

export type TClientAuthGuard = {
  /** Checks a secret in a slot of its own, so parallel guesses beyond the limit are refused unchecked (429). */
  judge: TJudge;
  /** Counts a failure that no secret check saw (an unknown or disabled client, the wrong kind of authentication). */
  failed(): Promise<void>;
};

/** The guard of one authentication attempt; 429 at once when the client id or the address is over its limit. */
export async function guardClientAuth(credential: TGuardedCredential, id: string, ip: string | undefined): Promise<TClientAuthGuard> {
  const { guesser, checks } = limitsOf(credential, id, ip);
  const windows = failureWindows();
  const locked = await windows.lockedFor(guesser);
  if (locked) throw throttled(locked);
  const onReached = (keys: string[]) => recordLockouts(keys, id, ip, credential);
  return {
    judge: async (check) => {
      const wait = await windows.reserve(checks);
      if (wait) throw throttled(wait);
      let ok: boolean;
      try {
        ok = await check();
      } catch (e) {
        await windows.settle(checks, false);
        throw e;
      }
      await onReached(await windows.settle(checks, !ok));
      return ok;
    },
    failed: async () => onReached(await windows.fail(guesser)),
  };
}
