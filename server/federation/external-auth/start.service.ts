import { createHash, randomBytes } from "node:crypto";
import { getConfig } from "../../config/config.ts";
import { hashOpaqueToken, newOpaqueToken } from "../../crypto/opaque-token.ts";
import type { TProviderKey } from "../federation.schemas.ts";
import { sealClientSecret } from "../provider-secrets.ts";
import { requireProvider } from "../providers.service.ts";
import type { TExternalAuthPurpose } from "./external-auth.types.ts";
import { endpointsOf } from "./provider-endpoints.ts";
import { insertRequest } from "./requests.repository.ts";

/** How long the browser has to come back from the provider. */
export const REQUEST_TTL_MS = 10 * 60_000;

export type TStartExternalAuth = {
  provider: TProviderKey;
  purpose: TExternalAuthPurpose;
  userId?: string;
  flowId?: string;
  returnTo?: string;
  isPopup?: boolean;
  /** The application that asked, for the events of the outcome. */
  clientId?: string;
};

/** The service's public callback, registered at every provider as the redirect URI. */
export function callbackUrl(): string {
  return `${getConfig().issuer}/fa/callback`;
}

/** RFC 7636 §4.2: the S256 challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/**
 * Builds the authorization request to the provider (state, nonce for oidc, PKCE S256, the provider's
 * scopes) and keeps what the callback needs to finish it. Only a hash of the state is stored; the
 * verifier is sealed (it is a secret until the code is spent). 404 unknown_fp for an unknown provider.
 */
export async function startExternalAuth(input: TStartExternalAuth): Promise<{ redirectTo: string; stateHash: string }> {
  const provider = await requireProvider(input.provider);
  const endpoints = await endpointsOf(provider);
  const state = newOpaqueToken();
  const stateHash = hashOpaqueToken(state);
  const verifier = randomBytes(32).toString("base64url");
  const nonce = provider.fpType === "oidc" ? newOpaqueToken() : null;
  await insertRequest({
    stateHash,
    fpType: provider.fpType,
    fpName: provider.fpName,
    purpose: input.purpose,
    userId: input.userId ?? null,
    flowId: input.flowId ?? null,
    clientId: input.clientId ?? null,
    returnTo: input.returnTo ?? null,
    isPopup: input.isPopup ?? false,
    awaitingSession: false,
    nonce,
    // Sealed with the provider secrets' key: the verifier protects the code the same way the secret does.
    codeVerifier: sealClientSecret(verifier),
    expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
  });
  const url = new URL(endpoints.authorizationEndpoint);
  const scopes = provider.scopes.length ? provider.scopes : provider.fpType === "oidc" ? ["openid"] : [];
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: callbackUrl(),
    scope: scopes.length ? scopes.join(" ") : null,
    state,
    nonce,
    code_challenge: pkceChallenge(verifier),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { redirectTo: url.toString(), stateHash };
}
