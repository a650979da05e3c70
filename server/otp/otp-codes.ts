import { timingSafeEqual } from "node:crypto";
import { HOTP, Secret } from "otpauth";

/*
 * The arithmetic of one-time passwords (RFC 4226 HOTP, RFC 6238 TOTP), free of storage: which counter
 * or time step a code belongs to. otpauth computes the codes; the windows and the comparison are ours,
 * because HOTP must only look ahead (otpauth's validate also looks back) and a code must be compared
 * in constant time whatever its length.
 */

export const OTP_ALGORITHMS = ["SHA1", "SHA256", "SHA512"] as const;
export type TOtpAlgorithm = (typeof OTP_ALGORITHMS)[number];

/** What a code is computed from. `seed` is the raw shared secret. */
export type TOtpKey = { seed: Uint8Array; algo: TOtpAlgorithm; digits: number };

/** TOTP accepts the step before and after the current one: clocks drift and people type slowly. */
export const TOTP_WINDOW = 1;
/** A sign-in code of an HOTP generator may be this many presses ahead of the last one used. */
export const HOTP_LOOK_AHEAD = 10;
/** Resynchronisation and device binding search this far ahead, and need consecutive codes to trust the find. */
export const HOTP_RESYNC_WINDOW = 1000;

export function codeAt(key: TOtpKey, counter: number): string {
  const secret = new Secret({ buffer: key.seed.slice().buffer as ArrayBuffer });
  return HOTP.generate({ secret, algorithm: key.algo, digits: key.digits, counter });
}

export function timeStep(period: number, nowMs: number): number {
  return Math.floor(nowMs / 1000 / period);
}

export function sameCode(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A code as typed: spaces and dashes dropped; undefined when it cannot be a code of this length. */
export function normaliseCode(code: string, digits: number): string | undefined {
  const c = code.replace(/[\s-]/g, "");
  return c.length === digits && /^\d+$/.test(c) ? c : undefined;
}

/**
 * The time step (within ±TOTP_WINDOW of now) whose code this is, or undefined. Every step of the
 * window is computed, so the time taken does not tell which one matched.
 */
export function matchTotpStep(key: TOtpKey, period: number, code: string, nowMs: number): number | undefined {
  const typed = normaliseCode(code, key.digits);
  const now = timeStep(period, nowMs);
  let found: number | undefined;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (sameCode(codeAt(key, step), typed ?? "") && found === undefined) found = step;
  }
  return typed === undefined ? undefined : found;
}

/** The counter in [from, from + window) whose code this is, or undefined. */
export function matchHotpCounter(key: TOtpKey, code: string, from: number, window = HOTP_LOOK_AHEAD): number | undefined {
  const typed = normaliseCode(code, key.digits);
  if (typed === undefined) return undefined;
  for (let c = from; c < from + window; c++) {
    if (sameCode(codeAt(key, c), typed)) return c;
  }
  return undefined;
}

/**
 * Resynchronisation: the counter at which `codes` appear one after another, searched in
 * [from, from + window). Returns the counter of the first code; the generator's next one is that
 * plus codes.length. One code alone proves little in a window this wide, so two or more are needed.
 */
export function findConsecutive(key: TOtpKey, codes: string[], from: number, window = HOTP_RESYNC_WINDOW): number | undefined {
  const typed = codes.map((c) => normaliseCode(c, key.digits));
  if (typed.length < 2 || typed.some((c) => c === undefined)) return undefined;
  for (let c = from; c < from + window; c++) {
    if (typed.every((t, i) => sameCode(codeAt(key, c + i), t!))) return c;
  }
  return undefined;
}

/** Base32 (RFC 4648) as people and apps write it: any case, spaces and padding allowed. Undefined when not base32. */
export function decodeBase32(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  if (!clean || !/^[A-Z2-7]+$/.test(clean)) return undefined;
  return new Uint8Array(Secret.fromBase32(clean).bytes);
}

export function encodeBase32(seed: Uint8Array): string {
  return new Secret({ buffer: seed.slice().buffer as ArrayBuffer }).base32;
}
