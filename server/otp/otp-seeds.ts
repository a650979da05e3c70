import { keyFor } from "../crypto/keys.ts";
import { seal, unseal } from "../crypto/sealing.ts";

/** A shared secret as stored: sealed with the otp-seeds key, never in the clear. */
export function sealSeed(seed: Uint8Array): string {
  return seal(keyFor("otp-seeds"), Buffer.from(seed).toString("base64"));
}

export function unsealSeed(sealed: string): Uint8Array {
  return new Uint8Array(Buffer.from(unseal(keyFor("otp-seeds"), sealed), "base64"));
}
