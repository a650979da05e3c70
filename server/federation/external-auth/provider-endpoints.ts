import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from "jose";
import { outboundFetch } from "../../http/outbound.ts";
import { AppError } from "../../errors/app-error.ts";
import { discoverProvider } from "../discovery.service.ts";
import type { TProviderRow } from "../providers.repository.ts";
import { providerLabel } from "../providers.service.ts";

/*
 * Where a provider's endpoints are: its explicit settings, else its discovery document. Discovery
 * documents and key sets are fetched from the provider, not the database, so they are cached here per
 * provider for a while (a changed setting changes the cache key, so an edit in the console applies at once).
 */

export type TProviderEndpoints = {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint?: string;
  jwksUri?: string;
  issuer?: string;
};

const DISCOVERY_TTL_MS = 10 * 60_000;
const discovered = new Map<string, { at: number; endpoints: TProviderEndpoints }>();
const keySets = new Map<string, JWTVerifyGetKey>();

async function discover(provider: TProviderRow, url: string): Promise<TProviderEndpoints> {
  const key = `${providerLabel(provider)} ${url} ${provider.issuer ?? ""}`;
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.endpoints;
  const result = await discoverProvider(url, { expectedIssuer: provider.issuer ?? undefined });
  if (!result.ok) throw new AppError("federation.provider_unavailable", { params: { ...keyOf(provider), reason: `discovery: ${result.error}` } });
  if (!result.found.tokenEndpoint) throw new AppError("federation.provider_unavailable", { params: { ...keyOf(provider), reason: "discovery: no token_endpoint" } });
  const endpoints = { ...result.found, tokenEndpoint: result.found.tokenEndpoint };
  discovered.set(key, { at: Date.now(), endpoints });
  return endpoints;
}

const keyOf = (p: TProviderRow) => ({ fpType: p.fpType, fpName: p.fpName });

/** The provider's endpoints: explicit settings win over what discovery says, field by field. */
export async function endpointsOf(provider: TProviderRow): Promise<TProviderEndpoints> {
  const found = provider.discoveryUrl ? await discover(provider, provider.discoveryUrl) : undefined;
  const authorizationEndpoint = provider.authorizationEndpoint ?? found?.authorizationEndpoint;
  const tokenEndpoint = provider.tokenEndpoint ?? found?.tokenEndpoint;
  if (!authorizationEndpoint || !tokenEndpoint) throw new AppError("federation.provider_unavailable", { params: { ...keyOf(provider), reason: "no authorization or token endpoint" } });
  return {
    authorizationEndpoint,
    tokenEndpoint,
    userinfoEndpoint: provider.userinfoEndpoint ?? found?.userinfoEndpoint,
    jwksUri: provider.jwksUri ?? found?.jwksUri,
    issuer: provider.issuer ?? found?.issuer,
  };
}

/** The provider's signing keys, fetched by jose on demand and refetched when an unknown kid appears. */
export function keySetOf(jwksUri: string): JWTVerifyGetKey {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    // Through the guarded fetch: the key set's address is typed by an administrator too.
    keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 5_000, cacheMaxAge: DISCOVERY_TTL_MS, [customFetch]: outboundFetch });
    keySets.set(jwksUri, keys);
  }
  return keys;
}
