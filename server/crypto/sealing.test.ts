import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKey, seal, sealedPrefix, secretKeyId, unseal, type TSealKey } from "./sealing.ts";

const OLD_SECRET = "a-secret-key-of-at-least-32-characters";
const NEW_SECRET = "another-secret-key-of-32-characters-or-more";
const sealKey = (secret: string, purpose = "otp-seeds"): TSealKey => ({ kid: secretKeyId(secret), key: deriveKey(secret, purpose) });

/** A value in the format stored before key ids existed: v1.<iv>.<tag>.<data>. */
function legacySeal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), data.toString("base64url")].join(".");
}

describe("seal/unseal", () => {
  const key = sealKey(OLD_SECRET);

  it("round-trips, names the secret key, and never stores the plaintext", () => {
    const sealed = seal(key, "JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(sealed.startsWith(sealedPrefix(secretKeyId(OLD_SECRET)))).toBe(true);
    expect(unseal([key], sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(seal(key, "same")).not.toBe(seal(key, "same"));
  });

  it("gives each secret key its own id, which reveals nothing of the key", () => {
    expect(secretKeyId(OLD_SECRET)).not.toBe(secretKeyId(NEW_SECRET));
    expect(secretKeyId(OLD_SECRET)).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(OLD_SECRET).not.toContain(secretKeyId(OLD_SECRET));
  });

  it("refuses a tampered value and a key for another purpose", () => {
    const sealed = seal(key, "secret");
    const parts = sealed.split(".");
    parts[4] = Buffer.from("tampered").toString("base64url");
    expect(() => unseal([key], parts.join("."))).toThrow();
    expect(() => unseal([sealKey(OLD_SECRET, "signing-keys")], sealed)).toThrow();
  });

  it("opens what an old key sealed while the ring holds it, and says which key is missing when not", () => {
    const sealedBefore = seal(key, "seed");
    const ring = [sealKey(NEW_SECRET), key];
    expect(unseal(ring, sealedBefore)).toBe("seed");
    expect(unseal(ring, seal(ring[0]!, "new"))).toBe("new");
    expect(() => unseal([sealKey(NEW_SECRET)], sealedBefore)).toThrow(secretKeyId(OLD_SECRET));
  });

  it("opens values of the format before key ids with whichever key of the ring sealed them", () => {
    const legacy = legacySeal(key.key, "old seed");
    expect(unseal([sealKey(NEW_SECRET), key], legacy)).toBe("old seed");
    expect(() => unseal([sealKey(NEW_SECRET)], legacy)).toThrow();
    expect(() => unseal([key], "v3.x.y.z")).toThrow("unsupported sealed value");
  });
});
