import { randomUUID } from "node:crypto";
import { getConfig } from "../../config/config.ts";
import { AppError } from "../../errors/app-error.ts";
import { andThen, type TMaybePromise } from "../../cache/maybe-promise.ts";
import { getSigningKey, getVerificationKey } from "../keys/signing-keys.service.ts";
import { signEs256Jwt } from "./jwt-sign.ts";
import { JwtError, verifyEs256Jwt } from "./jwt-verify.ts";
import { isRevoked } from "./revocation-cache.ts";
import { isCutOff } from "./token-cutoffs.ts";
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

type TVerified = { claims: TAccessClaims; kid: string };

/**
 * Verifies an access token and checks it is neither expired, revoked nor cut off; throws the
 * contract's 401s. A token verified before is not verified again while its signing key is current
 * (verified-tokens.ts); expiry, revocation and the user's cutoff are checked every time, from the
 * in-process caches. When every check answers from memory, as for all but a token's first request,
 * the claims come back without a Promise (cache/maybe-promise.ts).
 */
export function verifyAccessToken(token: string): TMaybePromise<TAccessClaims> {
  return andThen(verifiedSignature(token), ({ claims }) => {
    refuseExpired(token, claims);
    return andThen(isRevoked(claims.jti), (revoked) => {
      if (revoked) throw new AppError("auth.token_revoked");
      // Session resets, device removals, locks and deletions.
      if (claims.sub_type !== "user") return claims;
      return andThen(isCutOff(claims.sub, claims.sid, claims.iat), (cutOff) => {
        if (cutOff) throw new AppError("auth.token_revoked");
        return claims;
      });
    });
  });
}

/** The token's checked signature: remembered while its key is in the key set, else checked now. */
function verifiedSignature(token: string): TMaybePromise<TVerified> {
  const remembered = recallVerified<TAccessClaims>(token);
  if (!remembered) return verifyAndRemember(token);
  return andThen(getVerificationKey(remembered.kid), (key) => {
    if (key) return remembered;
    forgetVerified(token);
    return verifyAndRemember(token);
  });
}

async function verifyAndRemember(token: string): Promise<TVerified> {
  const verified = await verifySigned(token);
  rememberVerified(token, verified);
  return verified;
}

function refuseExpired(token: string, claims: TAccessClaims): void {
  if (Math.floor(Date.now() / 1000) < claims.exp) return;
  forgetVerified(token);
  throw new AppError("auth.token_expired");
}
