import { randomUUID } from "node:crypto";
import { getConfig } from "../../config/config.ts";
import { AppError } from "../../errors/app-error.ts";
import { getSigningKey, getVerificationKey, hasLoadedVerificationKey } from "../keys/signing-keys.service.ts";
import { signEs256Jwt } from "./jwt-sign.ts";
import { JwtError, verifyEs256Jwt } from "./jwt-verify.ts";
import { isRevoked, revokedInProcess } from "./revocation-cache.ts";
import { cutOffInProcess, isCutOff } from "./token-cutoffs.ts";
import { forgetVerified, recallVerified, rememberVerified } from "./verified-tokens.ts";

/** Whose token it is: a client acting for itself (system mode) or a user (user mode). */
export type TSubjectType = "client" | "user";

export type TAccessClaims = {
  iss: string;
  sub: string;
  sub_type: TSubjectType;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  /** User mode: the browser session the grant came from, which cutoffs may name. */
  sid?: string;
  /** User mode: when the person last proved who they are, and how (OIDC's ID token claims), for step-up checks. */
  auth_time?: number;
  amr?: string[];
};

export type TIssuedToken = { token: string; expiresIn: number; jti: string; scope: string; expiresAt: Date };

/** Signs an RFC 9068 JWT access token (`typ: at+jwt`); `ttl` (seconds) overrides the server's default. */
export async function issueAccessToken(input: {
  clientId: string;
  sub: string;
  subType: TSubjectType;
  scopes: string[];
  ttl?: number | null;
  sessionId?: string | null;
  authTime?: Date;
  amr?: string[];
}): Promise<TIssuedToken> {
  const { issuer } = getConfig();
  const accessTokenTtl = input.ttl ?? getConfig().accessTokenTtl;
  const { kid, key } = await getSigningKey();
  const jti = randomUUID();
  const scope = input.scopes.join(" ");
  const iat = Math.floor(Date.now() / 1000);
  const claims: TAccessClaims & { aud: string } = {
    iss: issuer,
    sub: input.sub,
    aud: issuer,
    client_id: input.clientId,
    scope,
    sub_type: input.subType,
    jti,
    iat,
    exp: iat + accessTokenTtl,
    ...(input.sessionId ? { sid: input.sessionId } : {}),
    ...(input.authTime ? { auth_time: Math.floor(input.authTime.getTime() / 1000) } : {}),
    ...(input.amr ? { amr: input.amr } : {}),
  };
  const token = await signEs256Jwt({ typ: "at+jwt", kid }, claims, key);
  return { token, expiresIn: accessTokenTtl, jti, scope, expiresAt: new Date(claims.exp * 1000) };
}

function invalid(reason: string): AppError {
  return new AppError("auth.token_invalid", { params: { reason } });
}

/** Signature, issuer, audience, type, expiry and the claims we rely on; throws the contract's 401s. */
async function verifySigned(token: string): Promise<{ claims: TAccessClaims; kid: string }> {
  const { issuer } = getConfig();
  let payload: Record<string, unknown>;
  // The kid the signature was checked with: a remembered token is only good while that key is.
  let kid = "";
  try {
    payload = await verifyEs256Jwt(token, { issuer, audience: issuer, typ: "at+jwt", keyFor: (k) => getVerificationKey((kid = k)) });
  } catch (e) {
    if (!(e instanceof JwtError)) throw e;
    if (e.reason === "expired") throw new AppError("auth.token_expired");
    throw invalid(e.reason);
  }
  const claims = payload as Partial<TAccessClaims>;
  if (
    typeof claims.sub !== "string" ||
    typeof claims.jti !== "string" ||
    typeof claims.client_id !== "string" ||
    typeof claims.scope !== "string" ||
    typeof claims.iat !== "number" ||
    (claims.sub_type !== "client" && claims.sub_type !== "user") ||
    (claims.sid !== undefined && typeof claims.sid !== "string") ||
    (claims.auth_time !== undefined && typeof claims.auth_time !== "number") ||
    (claims.amr !== undefined && !(Array.isArray(claims.amr) && claims.amr.every((m) => typeof m === "string")))
  ) {
    throw invalid("missing_claims");
  }
  return { claims: claims as TAccessClaims, kid };
}

/**
 * Verifies an access token and checks it is neither expired, revoked nor cut off; throws the contract's 401s.
 * A token verified before is not verified again while its signing key is still in the key set
 * (verified-tokens.ts); expiry, revocation and the user's cutoff are checked every time.
 */
export async function verifyAccessToken(token: string): Promise<TAccessClaims> {
  const known = verifiedInProcess(token);
  if (known) return known;
  let verified = recallVerified<TAccessClaims>(token);
  if (verified && !hasLoadedVerificationKey(verified.kid) && !(await getVerificationKey(verified.kid))) {
    forgetVerified(token);
    verified = undefined;
  }
  if (!verified) {
    verified = await verifySigned(token);
    rememberVerified(token, verified);
  }
  const { claims } = verified;
  refuseExpired(token, claims);
  if (revokedInProcess(claims.jti) ?? (await isRevoked(claims.jti))) throw new AppError("auth.token_revoked");
  // Session resets, device removals, locks and deletions: checked every time, from the in-process cache.
  if (claims.sub_type === "user" && (cutOffInProcess(claims.sub, claims.sid, claims.iat) ?? (await isCutOff(claims.sub, claims.sid, claims.iat)))) {
    throw new AppError("auth.token_revoked");
  }
  return claims;
}

/**
 * verifyAccessToken's answer when every check answers from process memory (a token verified before,
 * its key, revocations and cutoffs cached), without a Promise: the bearer check of nearly every API
 * request ends here. Throws the same 401s; undefined when a check would have to wait for the database.
 */
export function verifiedInProcess(token: string): TAccessClaims | undefined {
  const verified = recallVerified<TAccessClaims>(token);
  if (!verified || !hasLoadedVerificationKey(verified.kid)) return undefined;
  const { claims } = verified;
  refuseExpired(token, claims);
  const revoked = revokedInProcess(claims.jti);
  const cutOff = claims.sub_type === "user" ? cutOffInProcess(claims.sub, claims.sid, claims.iat) : false;
  if (revoked === undefined || cutOff === undefined) return undefined;
  if (revoked || cutOff) throw new AppError("auth.token_revoked");
  return claims;
}

function refuseExpired(token: string, claims: TAccessClaims): void {
  if (Math.floor(Date.now() / 1000) < claims.exp) return;
  forgetVerified(token);
  throw new AppError("auth.token_expired");
}
