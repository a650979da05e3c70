import { z } from "zod";
import { type THttpMethod } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { authorizeGetRoute, authorizePostRoute } from "./authorize/authorize.routes.ts";
import { discoveryDocument } from "./discovery.service.ts";
import { getJwks } from "./keys/signing-keys.service.ts";
import { logoutGetRoute, logoutPostRoute } from "./logout/logout.routes.ts";
import { ZDiscovery, ZIntrospectionResponse, ZJwks, ZRevocationRequest, ZTokenRequest, ZTokenResponse, ZUserinfo } from "./oauth.schemas.ts";
import { runIntrospection, runRevocation } from "./token-endpoint/revoke.steps.ts";
import { runTokenRequest } from "./token-endpoint/token.steps.ts";
import { userinfoAnswer } from "./userinfo.service.ts";
import { Answer } from "../http/exchange.ts";

// 429 oauth.client_auth_throttled: too many failed client authentications for the id or the address (Retry-After).
const OAUTH_ERRORS = ["oauth.invalid_request", "oauth.invalid_client", "oauth.client_auth_throttled", "request.too_large"] as const;
// RFC 6749 §3.2: unrecognised parameters are ignored, on the query string as in the body.
const ZIgnoredQuery = z.object({});

export const tokenRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/te",
    summary: "Issue tokens (client_credentials, authorization_code, refresh_token)",
    description:
      "RFC 6749 token endpoint. A confidential client authenticates with HTTP Basic (id and secret form-urlencoded, then base64) or client_secret_post; " +
      "a public client sends only client_id. client_credentials: system scopes the client is allowed. authorization_code: single use within 60 s, " +
      "the authorization request's redirect_uri and the PKCE code_verifier; a second use fails and revokes what the first issued. " +
      "refresh_token (with offline_access): every use returns a new refresh token; presenting a used one revokes its whole family.",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    errorShape: "oauth",
    query: ZIgnoredQuery,
    form: ZTokenRequest,
    response: { status: 200, description: "The token response", schema: ZTokenResponse, headers: { pragma: "no-cache" } },
    errors: [...OAUTH_ERRORS, "oauth.unauthorized_client", "oauth.unsupported_grant_type", "oauth.invalid_scope", "oauth.invalid_grant"],
  },
  ({ request, ctx }) => runTokenRequest(request, (id) => (ctx.clientId = id)),
);

export const revokeRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/revoke",
    summary: "Revoke an access or refresh token (RFC 7009)",
    description:
      "Always 200 for a token the caller cannot revoke (unknown, expired, or another client's), as RFC 7009 §2.2 prescribes. " +
      "Revoking a refresh token revokes its family and the access tokens issued with it. A public client sends only client_id.",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    errorShape: "oauth",
    query: ZIgnoredQuery,
    form: ZRevocationRequest,
    response: { status: 200, description: "Revoked, or nothing to revoke" },
    errors: [...OAUTH_ERRORS],
  },
  async ({ request, ctx }) => {
    await runRevocation(request, (id) => (ctx.clientId = id));
    return new Answer(200, { "cache-control": "no-store" });
  },
);

export const introspectRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/introspect",
    summary: "Introspect a token (RFC 7662)",
    description:
      "For confidential clients (HTTP Basic or client_secret_post). A live access token is described; a refresh token only to the client it was issued to. " +
      'An unknown, expired, revoked or foreign token answers 200 {"active": false}.',
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    errorShape: "oauth",
    query: ZIgnoredQuery,
    form: ZRevocationRequest,
    response: { status: 200, description: "What the token is, or active: false", schema: ZIntrospectionResponse },
    errors: [...OAUTH_ERRORS],
  },
  ({ request, ctx }) => runIntrospection(request, (id) => (ctx.clientId = id)),
);

function userinfoRoute(method: Extract<THttpMethod, "GET" | "POST">) {
  return defineRoute(
    {
      method,
      path: "/oauth/me",
      summary: "UserInfo (OpenID Connect)",
      description: "The signed-in user's claims by the token's scopes: profile (names), email, phone. Needs a user token with the openid scope.",
      tags: ["OAuth 2.0"],
      auth: { kind: "bearer", user: ["openid"] },
      errorShape: "oauth",
      ...(method === "POST" ? { query: ZIgnoredQuery } : {}),
      response: { status: 200, description: "Claims", schema: ZUserinfo },
      errors: [],
    },
    ({ ctx }) => {
      const actor = ctx.actor as Extract<typeof ctx.actor, { mode: "user" }>;
      return userinfoAnswer(actor.userId, actor.scopes);
    },
  );
}

export const userinfoGetRoute = userinfoRoute("GET");
export const userinfoPostRoute = userinfoRoute("POST");

export const jwksRoute = defineRoute(
  {
    method: "GET",
    path: "/.well-known/jwks.json",
    summary: "Public keys that verify access and ID tokens",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    response: { status: 200, description: "JSON Web Key Set", schema: ZJwks },
    errors: [],
    // Short enough that a rotated key is picked up well within one token lifetime.
    cacheControl: "public, max-age=300",
  },
  () => getJwks(),
);

export const discoveryRoute = defineRoute(
  {
    method: "GET",
    path: "/.well-known/openid-configuration",
    summary: "OpenID Provider metadata",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    response: { status: 200, description: "Discovery document", schema: ZDiscovery },
    errors: [],
    cacheControl: "public, max-age=300",
  },
  async () => discoveryDocument(),
);

export const OAUTH_ROUTES = [
  authorizeGetRoute,
  authorizePostRoute,
  tokenRoute,
  revokeRoute,
  introspectRoute,
  userinfoGetRoute,
  userinfoPostRoute,
  logoutGetRoute,
  logoutPostRoute,
  jwksRoute,
  discoveryRoute,
];
