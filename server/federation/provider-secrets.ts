import { sealFor, unsealFor } from "../crypto/keys.ts";

// A provider's client secret is needed in the clear to call its token endpoint, so it is sealed
// (AES-256-GCM, as OTP seeds are) rather than hashed, with a key of its own purpose.

export function sealClientSecret(secret: string): string {
  return sealFor("federation-secrets", secret);
}

export function unsealClientSecret(sealed: string): string {
  return unsealFor("federation-secrets", sealed);
}
