import { createHmac } from "node:crypto";
import { hashOpaqueToken } from "../crypto/opaque-token.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: letters and digits a person can read out and a QR code holds compactly. */
export function base32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + ALPHABET[(value << (5 - bits)) & 31] : out;
}

/** 128 bits in base32. */
export const QR_CODE = /^[A-Z2-7]{26}$/;

/**
 * The code of a QR sign-in, derived from the waiting browser's CSRF cookie (256 random bits) and the
 * sign-in's id: 128 bits nobody can compute without that cookie. The database keeps only its hash,
 * and the waiting page, reloaded every few seconds, shows it again without storing it anywhere.
 */
export function qrCodeFor(browserCookie: string, qrId: string): string {
  return base32(createHmac("sha256", browserCookie).update(`qr-sign-in:${qrId}`).digest().subarray(0, 16));
}

/** What the database keeps of a code; case and spaces a person may have typed do not matter. */
export function qrCodeHash(code: string): string | undefined {
  const normal = code.replace(/[\s-]/g, "").toUpperCase();
  return QR_CODE.test(normal) ? hashOpaqueToken(normal) : undefined;
}
