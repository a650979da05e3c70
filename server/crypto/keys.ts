import { getConfig } from "../config/config.ts";
import { resolveSecretKeys } from "./secret-key.ts";
import { deriveKey, seal, secretKeyId, unseal, type TSealKey } from "./sealing.ts";

export type TKeyPurpose = "signing-keys" | "otp-seeds" | "credential-cache" | "session" | "outbox" | "confirmation-codes" | "builtin-clients" | "federation-secrets" | "federation-tokens" | "throttle-keys" | "delivery-secrets" | "directory-secrets";

// One ring per purpose: the current key's derivation first, then the previous keys'.
const cache = new Map<TKeyPurpose, TSealKey[]>();

function ringOf(purpose: TKeyPurpose): TSealKey[] {
  let ring = cache.get(purpose);
  if (!ring) {
    const { current, previous } = resolveSecretKeys(getConfig());
    ring = [current, ...previous].map((secret) => ({ kid: secretKeyId(secret), key: deriveKey(secret, purpose) }));
    cache.set(purpose, ring);
  }
  return ring;
}

/** The process's key for one purpose, derived from IDP_SECRET_KEY (or the data dir's key). */
export function keyFor(purpose: TKeyPurpose): Buffer {
  return ringOf(purpose)[0]!.key;
}

/**
 * Every key of a purpose, the current one first: an HMAC made before a rotation (a confirmation
 * code's hash, a binding's browser mark) still checks until it expires.
 */
export function keysFor(purpose: TKeyPurpose): Buffer[] {
  return ringOf(purpose).map((k) => k.key);
}

/** The id of the secret key new values are sealed under. */
export function currentSecretKeyId(): string {
  // Any purpose's ring names the same secret keys.
  return ringOf("outbox")[0]!.kid;
}

export function sealFor(purpose: TKeyPurpose, plaintext: string): string {
  return seal(ringOf(purpose)[0]!, plaintext);
}

export function unsealFor(purpose: TKeyPurpose, sealed: string): string {
  return unseal(ringOf(purpose), sealed);
}

/** Whether the current secret key alone opens `sealed`: whether a server holding only it can. */
export function opensWithCurrentKey(purpose: TKeyPurpose, sealed: string): boolean {
  try {
    unseal([ringOf(purpose)[0]!], sealed);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the derived keys: the re-sealing command reads the key file again after rewriting it. */
export function forgetDerivedKeys(): void {
  cache.clear();
}
