import { keyFor } from "../crypto/keys.ts";
import { seal, unseal } from "../crypto/sealing.ts";

// A provider's client secret is needed in the clear to call its token endpoint, so it is sealed
// (AES-256-GCM, as OTP seeds are) rather than hashed, with a key of its own purpose.

export function sealClientSecret(secret: string): string {
  return seal(keyFor("federation-secrets"), secret);
}

export function unsealClientSecret(sealed: string): string {
  return unseal(keyFor("federation-secrets"), sealed);
}
