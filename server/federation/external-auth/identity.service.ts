import { errors as joseErrors, jwtVerify } from "jose";
import { AppError } from "../../errors/app-error.ts";
import type { TProviderKey } from "../federation.schemas.ts";
import { unsealClientSecret } from "../provider-secrets.ts";
import type { TProviderRow } from "../providers.repository.ts";
import type { TExternalIdentity, TPendingExternalAuth } from "./external-auth.types.ts";
import { endpointsOf, keySetOf, type TProviderEndpoints } from "./provider-endpoints.ts";
import { tokenRequest, userinfoRequest } from "./provider-http.ts";
import { callbackUrl } from "./start.service.ts";

/*
 * The callback's work with the provider: the code for tokens, the ID token checked (OIDC Core
 * §3.1.3.7), the claims read, and from them the external account id (sid) and user name.
 */

const refused = (provider: TProviderKey, reason: string) => new AppError("federation.provider_refused", { params: { ...provider, reason } });

/** A claim as a non-empty string (numbers too: some providers' ids are numeric); undefined otherwise. */
export function claimText(claims: Record<string, unknown>, name: string): string | undefined {
  const v = claims[name];
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Longest expires_in taken at its word: beyond it (or zero, negative, not a number) the expiry is unknown, not an Invalid Date. */
export const MAX_EXPIRES_IN_S = 10 * 365 * 24 * 3600;

/** The token response's tokens; expires_in (seconds) becomes an instant, absent when the provider gives none (or a nonsensical one). */
export function tokensOf(body: Record<string, unknown>, now = Date.now()): TExternalIdentity["tokens"] | undefined {
  if (typeof body.access_token !== "string" || body.access_token === "") return undefined;
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : typeof body.expires_in === "string" ? Number(body.expires_in) : NaN;
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === "string" && body.refresh_token !== "" ? body.refresh_token : undefined,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 && expiresIn <= MAX_EXPIRES_IN_S ? new Date(now + expiresIn * 1000) : undefined,
  };
}

export function clientAuthOf(provider: TProviderRow): { clientId: string; secret?: string } {
  return { clientId: provider.clientId, secret: provider.clientSecret !== null ? unsealClientSecret(provider.clientSecret) : undefined };
}

const ID_TOKEN_ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

async function idTokenClaims(provider: TProviderRow, endpoints: TProviderEndpoints, idToken: unknown, nonce: string | null): Promise<Record<string, unknown>> {
  const key = { fpType: provider.fpType, fpName: provider.fpName } as TProviderKey;
  if (typeof idToken !== "string") throw refused(key, "no id_token in the token response");
  if (!endpoints.jwksUri || !endpoints.issuer) throw new AppError("federation.provider_unavailable", { params: { ...key, reason: "no jwks_uri or issuer" } });
  try {
    const { payload } = await jwtVerify(idToken, keySetOf(endpoints.jwksUri), {
      issuer: endpoints.issuer,
      audience: provider.clientId,
      clockTolerance: 30,
      requiredClaims: ["exp", "iat", "sub"],
      // Only signatures by the provider's published keys: no HMAC (the client secret is no signing key for us).
      algorithms: ID_TOKEN_ALGS,
    });
    if (payload.nonce !== nonce) throw refused(key, "id_token nonce does not match");
    // OIDC Core §3.1.3.7: azp, when present (and required with several audiences), names this client.
    const severalAudiences = Array.isArray(payload.aud) && payload.aud.length > 1;
    if ((payload.azp !== undefined || severalAudiences) && payload.azp !== provider.clientId) throw refused(key, "id_token azp is not this client");
    return payload as Record<string, unknown>;
  } catch (e) {
    if (e instanceof AppError) throw e;
    // The key set could not be fetched: the provider is at fault, not the token.
    if (e instanceof joseErrors.JWKSTimeout || (e instanceof Error && !(e instanceof joseErrors.JOSEError))) {
      throw new AppError("federation.provider_unavailable", { params: { ...key, reason: "jwks_uri cannot be read" } });
    }
    throw refused(key, `id_token: ${(e as Error).message}`);
  }
}

/** Exchanges the callback's code and reads who the external account is. */
export async function identityFromCode(provider: TProviderRow, pending: TPendingExternalAuth, code: string): Promise<TExternalIdentity> {
  const key = { fpType: provider.fpType, fpName: provider.fpName } as TProviderKey;
  const endpoints = await endpointsOf(provider);
  const answer = await tokenRequest(key, endpoints.tokenEndpoint, { grant_type: "authorization_code", code, redirect_uri: callbackUrl(), code_verifier: pending.codeVerifier }, clientAuthOf(provider));
  if (!answer.ok) throw refused(key, `token endpoint: ${answer.error}`);
  const tokens = tokensOf(answer.body);
  if (!tokens) throw refused(key, "no access_token in the token response");
  let claims: Record<string, unknown> = provider.fpType === "oidc" ? await idTokenClaims(provider, endpoints, answer.body.id_token, pending.nonce) : {};
  const complete = claimText(claims, provider.sidClaim) !== undefined && claimText(claims, provider.userNameClaim) !== undefined;
  if (!complete && endpoints.userinfoEndpoint) {
    const info = await userinfoRequest(key, endpoints.userinfoEndpoint, tokens.accessToken);
    // OIDC Core §5.3.4: userinfo of another subject than the ID token's must not be used.
    if (provider.fpType === "oidc" && info.sub !== claims.sub) throw refused(key, "userinfo sub differs from the id_token's");
    claims = { ...info, ...claims };
  }
  const sid = claimText(claims, provider.sidClaim);
  if (!sid) throw refused(key, `no ${provider.sidClaim} claim`);
  // The binding's key has the length limit of the REST paths that name it.
  if (sid.length > 256) throw refused(key, `${provider.sidClaim} is longer than 256 characters`);
  return { provider: key, sid, userName: claimText(claims, provider.userNameClaim), claims, tokens };
}
