import { createHash } from "node:crypto";
import { LOGO_MAX_BYTES, type TLogoType } from "./branding.shared.ts";

// A logo is served from the service's own origin to every visitor of the sign-in page, so what is
// stored is checked by its bytes, not by the type the uploader claims: only PNG, JPEG and WebP
// (never SVG, which can carry script), and no more than LOGO_MAX_BYTES.

/** The image type its first bytes announce, or undefined for anything else. */
export function sniffLogoType(bytes: Uint8Array): TLogoType | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  // RIFF....WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/** Why the bytes cannot be a logo, in words; undefined when they can. `claimed` is the type the uploader named. */
export function logoProblem(bytes: Uint8Array, claimed: string): string | undefined {
  if (bytes.byteLength === 0) return "the image is empty";
  if (bytes.byteLength > LOGO_MAX_BYTES) return `the image is larger than ${LOGO_MAX_BYTES / 1024} KB`;
  const type = sniffLogoType(bytes);
  if (!type) return "only PNG, JPEG and WebP images are accepted";
  if (type !== claimed) return `the image is ${type}, not ${claimed}`;
  return undefined;
}

/** Names the bytes in the logo's URL and ETag: a new logo is a new URL, so browsers may keep one for a year. */
export function logoVersion(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64url").slice(0, 16);
}
