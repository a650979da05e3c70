import { defineRoute } from "../http/define-route.ts";
import { z } from "zod";
import { discoveryDocument } from "./discovery.service.ts";
import { getJwks } from "./keys/signing-keys.service.ts";
import { ZDiscovery, ZJwks, ZRevocationRequest, ZTokenRequest, ZTokenResponse } from "./oauth.schemas.ts";
import { runRevocation } from "./token-endpoint/revoke.steps.ts";
import { runTokenRequest } from "./token-endpoint/token.steps.ts";

const OAUTH_ERRORS = ["oauth.invalid_request", "oauth.invalid_client", "request.too_large"] as const;
// RFC 6749 §3.2: unrecognised parameters are ignored, on the query string as in the body.
const ZIgnoredQuery = z.object({});

export const tokenRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/te",
    summary: "Issue an access token (client_credentials)",
    description:
      "RFC 6749 token endpoint. Authenticate with HTTP Basic (id and secret form-urlencoded, then base64) or client_secret_post; request system scopes the client is allowed.",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    errorShape: "oauth",
    query: ZIgnoredQuery,
    form: ZTokenRequest,
    response: { status: 200, description: "The access token response", schema: ZTokenResponse, headers: { pragma: "no-cache" } },
    errors: [...OAUTH_ERRORS, "oauth.unauthorized_client", "oauth.unsupported_grant_type", "oauth.invalid_scope"],
  },
  ({ request, ctx }) => runTokenRequest(request, (id) => (ctx.clientId = id)),
);

export const revokeRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/revoke",
    summary: "Revoke an access token (RFC 7009)",
    description: "Always 200 for a token the caller cannot revoke (unknown, expired, or another client's), as RFC 7009 §2.2 prescribes.",
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
    return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
  },
);

export const jwksRoute = defineRoute(
  {
    method: "GET",
    path: "/.well-known/jwks.json",
    summary: "Public keys that verify access tokens",
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
    summary: "Authorization server metadata",
    tags: ["OAuth 2.0"],
    auth: { kind: "none" },
    response: { status: 200, description: "Discovery document", schema: ZDiscovery },
    errors: [],
    cacheControl: "public, max-age=300",
  },
  async () => discoveryDocument(),
);
