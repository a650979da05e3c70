import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Format: v1.<iv>.<tag>.<ciphertext>, base64url. The version prefix leaves room for key rotation.
const VERSION = "v1";

/** Derives a 256-bit key for one purpose, so a leak of one derived key exposes nothing else. */
export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "identity-service", purpose, 32));
}

/** AES-256-GCM encryption of a secret at rest (signing keys, OTP seeds). */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("unsupported sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
