import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import { keyFor } from "../crypto/keys.ts";
import { ACCOUNT_CAP_POLICY, ACCOUNT_POLICY, IP_POLICY, RECOVERY_ADDRESS_POLICY, RECOVERY_IP_POLICY } from "./throttle-policy.ts";
import type { TThrottleKey } from "./throttle.service.ts";

/*
 * Which counters a sign-in attempt (a password, or the second step's code) is counted on:
 * - the account seen from this address (an IPv6 subscriber's /64), or from this browser when the
 *   account signed in from it before, for the password and the second step's code apart: five wrong
 *   attempts lock that pair, not the account for everyone, so a stranger's
 *   guesses cannot keep the owner out;
 * - the account across every address (a higher ceiling), which bounds guessing spread over many
 *   addresses; a browser the account knows is not held to it;
 * - the address, across accounts.
 * An identifier that names no account is counted like one, normalised as the lookup normalises it
 * (an e-mail's case, a phone's spelling), so the counters cannot tell a registered phone from an
 * unregistered one. Keys are HMACs: the table holds no identifier nor address in the clear.
 */

export type TSignInKeys = {
  keys: TThrottleKey[];
  /** The counter a success starts over: the account from this address or browser. */
  own: string;
  /** The other counters (the account's ceiling, the address), which a success gives their slot back. */
  others: string[];
};

function keyOf(kind: string, ...parts: string[]): string {
  return `${kind}:${createHmac("sha256", keyFor("throttle-keys")).update([kind, ...parts].join("\0")).digest("base64url")}`;
}

/**
 * The counters of a current-password check through the REST API for a client (`relayedBy`): the
 * account's ceiling across addresses, shared with the sign-in page, and the (client, account) pair.
 * The address a client names is its word only, so it keys nothing (see password-change.service.ts).
 */
export function relayedKeys(userId: string, relayedBy: string): TSignInKeys {
  const own = keyOf("client-user", relayedBy, userId);
  const ceiling = keyOf("acct", `user:${userId}`);
  return { keys: [{ key: own, policy: ACCOUNT_POLICY }, { key: ceiling, policy: ACCOUNT_CAP_POLICY }], own, others: [ceiling] };
}

/**
 * The part of an address that one party controls: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network; counting its 2^64 addresses one by one would make the limits free).
 */
export function addressBlock(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped || isIP(ip) !== 6) return mapped ?? ip;
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const full = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${full.slice(0, 4).map((h) => h.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/**
 * `who`: "user:<id>" for an account, "id:<normalised identifier>" for an identifier of none.
 * `knownDevice`: the id of this browser's device when the account signed in from it before.
 * `step`: the password, or the second step's code, which counts on a pair of its own so that a
 * right password (which starts its pair over) does not give the code guesses back.
 */
export function signInKeys(who: string, ip: string | undefined, knownDevice: string | null, step: "password" | "code" = "password"): TSignInKeys {
  const block = ip ? addressBlock(ip) : undefined;
  const address = block ? keyOf("ip", block) : undefined;
  const own = knownDevice ? keyOf(`${step}-dev`, who, knownDevice) : keyOf(`${step}-ip`, who, block ?? "");
  const keys: TThrottleKey[] = [{ key: own, policy: ACCOUNT_POLICY }];
  if (!knownDevice) keys.push({ key: keyOf("acct", who), policy: ACCOUNT_CAP_POLICY });
  if (address) keys.push({ key: address, policy: IP_POLICY });
  return { keys, own, others: keys.slice(1).map((k) => k.key) };
}

/**
 * The counter of a passkey answer at sign-in (alone, or as the second factor): the address's, for
 * passkeys only. An answer cannot be guessed, but each one is checked and recorded, so an address
 * sending refused answers in a loop is held back like one guessing passwords; a counter of its own,
 * so that wrong passwords from a shared address do not lock its passkeys out too.
 */
export function passkeyAnswerKeys(ip: string | undefined): TThrottleKey[] {
  const block = ip ? addressBlock(ip) : undefined;
  return block ? [{ key: keyOf("passkey-ip", block), policy: IP_POLICY }] : [];
}

/**
 * The counters of a recovery request: every request sends a message (an SMS costs the sender), so
 * each one counts, whether an account has the address or not (the counters cannot tell them apart).
 */
export function recoveryKeys(channel: "email" | "phone", address: string, ip: string | undefined): TThrottleKey[] {
  const block = ip ? addressBlock(ip) : undefined;
  return [{ key: keyOf("recover-to", channel, address), policy: RECOVERY_ADDRESS_POLICY }, ...(block ? [{ key: keyOf("recover-ip", block), policy: RECOVERY_IP_POLICY }] : [])];
}
