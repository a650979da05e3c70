import { sealFor, unsealFor } from "../crypto/keys.ts";

/** A shared secret as stored: sealed with the otp-seeds key, never in the clear. */
export function sealSeed(seed: Uint8Array): string {
  return sealFor("otp-seeds", Buffer.from(seed).toString("base64"));
}

export function unsealSeed(sealed: string): Uint8Array {
  return new Uint8Array(Buffer.from(unsealFor("otp-seeds", sealed), "base64"));
}
