import { z } from "zod";

export const ZTokenRequest = z.object({
  grant_type: z.literal("client_credentials"),
  scope: z.string().describe("space-separated system scopes, each allowed for the client"),
  client_id: z.string().optional().describe("with client_secret_post only"),
  client_secret: z.string().optional().describe("with client_secret_post only"),
});

export const ZTokenResponse = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  token_type: z.literal("Bearer"),
});

export const ZRevocationRequest = z.object({
  token: z.string(),
  token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
});

export const ZJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const ZDiscovery = z.object({
  issuer: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  revocation_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  service_documentation: z.string(),
});
