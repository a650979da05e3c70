import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/*
 * Format: v2.<kid>.<iv>.<tag>.<ciphertext>, base64url. The kid names the IDP_SECRET_KEY the value was
 * sealed under, so after a rotation every value is opened with its own key, and the re-sealing
 * command finds what is still under an old one with a prefix match. Values of the first format
 * (v1.<iv>.<tag>.<ciphertext>, before key ids) are opened by trying each key of the ring.
 */
const VERSION = "v2";
const LEGACY_VERSION = "v1";

/** One purpose's key derived from one secret key, and the id of that secret key. */
export type TSealKey = { kid: string; key: Buffer };

/** Derives a 256-bit key for one purpose, so a leak of one derived key exposes nothing else. */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "identity-service", purpose, 32));
}

/**
 * The public name of a secret key: 64 bits of its own derivation, which say which key sealed a value
 * without saying anything about the key (HKDF outputs of other purposes are independent of it).
 */
export function secretKeyId(secretKey: string): string {
  return deriveKey(secretKey, "key-id").subarray(0, 8).toString("base64url");
}

/** The prefix every value sealed under the secret key `kid` starts with. */
export function sealedPrefix(kid: string): string {
  return `${VERSION}.${kid}.`;
}

/** AES-256-GCM encryption of a secret at rest (signing keys, OTP seeds, provider secrets …). */
export function seal(key: TSealKey, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, key.kid, ...[iv, cipher.getAuthTag(), data].map((p) => p.toString("base64url"))].join(".");
}

function open(key: Buffer, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

/** Opens a sealed value with the key of the ring that sealed it; throws when none did or it was altered. */
export function unseal(ring: readonly TSealKey[], sealed: string): string {
  const parts = sealed.split(".");
  if (parts[0] === VERSION && parts.length === 5) {
    const [, kid, iv, tag, data] = parts as [string, string, string, string, string];
    const key = ring.find((k) => k.kid === kid);
    if (!key) throw new Error(`sealed under a secret key this server does not have (key id ${kid})`);
    return open(key.key, iv, tag, data);
  }
  if (parts[0] === LEGACY_VERSION && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    for (const key of ring) {
      try {
        return open(key.key, iv, tag, data);
      } catch {
        // not this key: GCM's tag tells, so the next one is tried
      }
    }
    throw new Error("sealed under a secret key this server does not have");
  }
  throw new Error("unsupported sealed value");
}
