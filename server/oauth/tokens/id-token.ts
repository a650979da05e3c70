import { createHash } from "node:crypto";
import { getConfig } from "../../config/config.ts";
import { getSigningKey } from "../keys/signing-keys.service.ts";
import { signEs256Jwt } from "./jwt-sign.ts";

export type TIdTokenInput = {
  clientId: string;
  userId: string;
  authTime: Date;
  amr: string[];
  acr: string;
  nonce?: string | null;
  sessionId?: string | null;
  accessToken: string;
  ttl?: number | null;
};

/** OIDC Core §3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

/** Signs an ID token (OIDC Core §2) with the same ES256 key as access tokens. */
export async function issueIdToken(input: TIdTokenInput): Promise<string> {
  const { issuer, accessTokenTtl } = getConfig();
  const { kid, key } = await getSigningKey();
  const iat = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer,
    sub: input.userId,
    aud: input.clientId,
    azp: input.clientId,
    iat,
    exp: iat + (input.ttl ?? accessTokenTtl),
    auth_time: Math.floor(input.authTime.getTime() / 1000),
    ...(input.nonce ? { nonce: input.nonce } : {}),
    at_hash: accessTokenHash(input.accessToken),
    acr: input.acr,
    amr: input.amr,
    ...(input.sessionId ? { sid: input.sessionId } : {}),
  };
  return signEs256Jwt({ typ: "JWT", kid }, claims, key);
}
