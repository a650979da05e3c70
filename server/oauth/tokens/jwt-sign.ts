import { sign, type KeyObject } from "node:crypto";

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/**
 * Compact JWS with ES256 through Node's crypto.sign. jose signs through WebCrypto, which measured
 * ~2,400 signatures/s here against ~16,700/s for crypto.sign: on the token endpoint that difference
 * is a third of the request budget. Given a callback, crypto.sign runs in libuv's thread pool: the
 * signature (a fifth of a token request's CPU, bench/README.md) leaves the event loop, which serves
 * other requests meanwhile, on another core when there is one. Verification stays with jose (see
 * access-token.ts).
 */
export function signEs256Jwt(header: { kid: string; typ: string }, payload: Record<string, unknown>, key: KeyObject): Promise<string> {
  const input = `${b64url({ alg: "ES256", ...header })}.${b64url(payload)}`;
  return new Promise((resolve, reject) => {
    // JWS (RFC 7518 §3.4) wants the raw r||s form, not DER.
    sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }, (e, signature) => {
      if (e) reject(e);
      else resolve(`${input}.${signature.toString("base64url")}`);
    });
  });
}
