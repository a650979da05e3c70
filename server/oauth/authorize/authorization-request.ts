import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { getClientForAuth } from "../../clients/clients.service.ts";
import { OIDC_SCOPES } from "../../clients/known-scopes.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TErrorCode } from "../../errors/codes.ts";
import { findBadText, mediaType, readBodyText } from "../../http/parse.ts";
import type { TIncoming } from "../../http/exchange.ts";

export const PROMPTS = ["none", "login", "consent"] as const;
export type TPrompt = (typeof PROMPTS)[number];

/** A validated authorization request, as a login flow keeps it. */
export type TAuthorizationRequest = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state?: string;
  nonce?: string;
  /** S256 code challenge (RFC 7636); the only method accepted. */
  codeChallenge?: string;
  prompt: TPrompt[];
  maxAge?: number;
  uiLocales?: string;
  loginHint?: string;
  /** Requested acr values, in order of preference (OIDC Core §3.1.2.1); see acr.ts for "phr". */
  acrValues?: string[];
  /**
   * Set when the sign-in answers a SAML service provider (server/saml/), whose row in clients is
   * `clientId`: the flow then ends with a SAML response sent from {issuer}/saml/sso/return, not a code.
   */
  saml?: { requestId?: string; acsUrl: string; relayState?: string; nameIdFormat: string };
};

/** Parameters of a request; a repeated one is remembered, not silently picked (RFC 6749 §3.1). */
export type TParams = { values: Map<string, string>; repeated: Set<string> };

export function collectParams(entries: Iterable<[string, string]>): TParams {
  const values = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [k, v] of entries) {
    if (values.has(k)) repeated.add(k);
    else values.set(k, v);
  }
  return { values, repeated };
}

/** Parameters of a browser-facing endpoint: the query of a GET, the form body of a POST. */
export async function readParams(req: TIncoming): Promise<TParams> {
  if (req.method === "GET") return collectParams(new URLSearchParams(req.search));
  if (mediaType(req) !== "application/x-www-form-urlencoded") throw new AppError("authorize.invalid_request", { desc: "the body must be form-urlencoded" });
  return collectParams(new URLSearchParams(await readBodyText(req)));
}

const fail = (code: TErrorCode, desc: string) => new AppError(code, { desc });

/**
 * The client and the redirect URI. Until both are known to be right, nothing may be sent to the
 * redirect URI (RFC 6749 §4.1.2.1): these failures are shown to the user instead.
 */
export async function resolveClient(p: TParams): Promise<{ client: TClientAuthRow; redirectUri: string }> {
  if (p.repeated.has("client_id") || p.repeated.has("redirect_uri")) throw fail("authorize.invalid_request", "client_id or redirect_uri is repeated");
  const clientId = p.values.get("client_id");
  if (!clientId) throw fail("authorize.invalid_request", "client_id is required");
  const client = clientId.length <= 128 && !findBadText(clientId) ? await getClientForAuth(clientId) : null;
  if (!client?.enabled) throw fail("authorize.unknown_client", "unknown or disabled client");
  const redirectUri = p.values.get("redirect_uri");
  // Exact string comparison (OAuth 2.0 Security BCP §4.1.3): no prefix, no normalisation.
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) throw fail("authorize.redirect_uri_mismatch", "redirect_uri is missing or not registered");
  return { client, redirectUri };
}

function optional(p: TParams, name: string, max: number): string | undefined {
  const v = p.values.get(name);
  if (v === undefined || v === "") return undefined;
  if (v.length > max || findBadText(v)) throw fail("oauth.invalid_request", `${name} is too long or contains invalid characters`);
  return v;
}

function parseScopes(p: TParams, client: TClientAuthRow): string[] {
  const raw = p.values.get("scope") ?? "";
  const scopes = [...new Set(raw.split(" ").filter(Boolean))];
  if (scopes.length === 0) throw fail("oauth.invalid_scope", "scope is required");
  const refused = scopes.filter((s) => !(OIDC_SCOPES as readonly string[]).includes(s) && !client.userScopes.includes(s));
  if (refused.length) throw fail("oauth.invalid_scope", `scope not allowed for this client: ${refused.join(" ").slice(0, 200)}`);
  if (scopes.includes("offline_access") && !client.grantTypes.includes("refresh_token")) {
    throw fail("oauth.invalid_scope", "offline_access: the client may not use refresh tokens");
  }
  return scopes;
}

const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

function parsePkce(p: TParams, client: TClientAuthRow): string | undefined {
  const challenge = p.values.get("code_challenge");
  const method = p.values.get("code_challenge_method");
  if (challenge === undefined) {
    if (method !== undefined) throw fail("oauth.invalid_request", "code_challenge_method without code_challenge");
    // RFC 9700 §2.1.1: PKCE for every client; only a confidential one explicitly let off may skip it.
    if (client.type === "public" || !client.pkceOptional) throw fail("oauth.invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256");
    return undefined;
  }
  // Without a method RFC 7636 means "plain", which protects nothing once the request is seen.
  if (method !== "S256") throw fail("oauth.invalid_request", "code_challenge_method must be S256");
  if (!CODE_CHALLENGE.test(challenge)) throw fail("oauth.invalid_request", "code_challenge is malformed");
  return challenge;
}

function parsePrompt(p: TParams): TPrompt[] {
  const values = [...new Set((p.values.get("prompt") ?? "").split(" ").filter(Boolean))];
  const unknown = values.filter((v) => !(PROMPTS as readonly string[]).includes(v));
  if (unknown.length) throw fail("oauth.invalid_request", `unsupported prompt: ${unknown.join(" ").slice(0, 100)}`);
  if (values.includes("none") && values.length > 1) throw fail("oauth.invalid_request", "prompt=none cannot be combined with other values");
  return values as TPrompt[];
}

/** Everything after the client and redirect URI; failures here go back to the client. */
export function validateAuthorizationRequest(p: TParams, client: TClientAuthRow, redirectUri: string): TAuthorizationRequest {
  if (p.repeated.size) throw fail("oauth.invalid_request", `repeated parameter: ${[...p.repeated].join(", ").slice(0, 100)}`);
  if (p.values.has("request")) throw fail("oauth.request_not_supported", "request objects are not supported");
  if (p.values.has("request_uri")) throw fail("oauth.request_uri_not_supported", "request_uri is not supported");
  const responseType = p.values.get("response_type");
  if (!responseType) throw fail("oauth.invalid_request", "response_type is required");
  if (responseType !== "code") throw fail("oauth.unsupported_response_type", "only response_type=code is supported");
  const mode = p.values.get("response_mode");
  if (mode !== undefined && mode !== "query") throw fail("oauth.invalid_request", "only response_mode=query is supported");
  if (!client.grantTypes.includes("authorization_code")) throw fail("oauth.unauthorized_client", "the client may not use the authorization code flow");
  const maxAge = optional(p, "max_age", 10);
  if (maxAge !== undefined && !/^\d+$/.test(maxAge)) throw fail("oauth.invalid_request", "max_age must be a number of seconds");
  return {
    clientId: client.id,
    redirectUri,
    scopes: parseScopes(p, client),
    state: optional(p, "state", 2048),
    nonce: optional(p, "nonce", 512),
    codeChallenge: parsePkce(p, client),
    prompt: parsePrompt(p),
    maxAge: maxAge === undefined ? undefined : Number(maxAge),
    uiLocales: optional(p, "ui_locales", 200),
    loginHint: optional(p, "login_hint", 254),
    acrValues: optional(p, "acr_values", 200)?.split(" ").filter(Boolean),
  };
}

/** `redirectUri` with the response parameters added to its query, and the issuer (RFC 9207). */
export function clientRedirect(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set("iss", issuer);
  return url.toString();
}
