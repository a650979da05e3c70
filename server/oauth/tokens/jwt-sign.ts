import { sign, type KeyObject } from "node:crypto";

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Compact JWS with ES256 through Node's synchronous crypto.sign. jose signs through WebCrypto, which
 * measured ~2,400 signatures/s here against ~16,700/s for this: on the token endpoint that difference
 * is a third of the request budget. Verification stays with jose (see access-token.ts).
 */
export function signEs256Jwt(header: { kid: string; typ: string }, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url({ alg: "ES256", ...header })}.${b64url(payload)}`;
  // JWS (RFC 7518 §3.4) wants the raw r||s form, not DER.
  const signature = sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
  return `${input}.${signature.toString("base64url")}`;
}
