import { z } from "zod";

export const ZTokenRequest = z.object({
  grant_type: z.enum(["client_credentials", "authorization_code", "refresh_token"]),
  scope: z.string().optional().describe("client_credentials: space-separated system scopes, each allowed for the client (required); refresh_token: narrows the grant"),
  code: z.string().optional().describe("authorization_code: the code from the authorization response"),
  redirect_uri: z.string().optional().describe("authorization_code: the redirect_uri of the authorization request"),
  code_verifier: z.string().optional().describe("authorization_code: the PKCE verifier (RFC 7636)"),
  refresh_token: z.string().optional().describe("refresh_token: the current refresh token; it is used up and a new one returned"),
  client_id: z.string().optional().describe("with client_secret_post, with a client certificate (tls_client_auth, RFC 8705), or alone for a public client (token_endpoint_auth_method none)"),
  client_secret: z.string().optional().describe("with client_secret_post only"),
});

export const ZTokenResponse = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  token_type: z.literal("Bearer"),
  id_token: z.string().optional().describe("with the openid scope"),
  refresh_token: z.string().optional().describe("with the offline_access scope"),
});

export const ZRevocationRequest = z.object({
  token: z.string(),
  token_type_hint: z.enum(["access_token", "refresh_token"]).optional(),
});

export const ZIntrospectionResponse = z.object({
  active: z.boolean(),
  token_type: z.enum(["Bearer", "refresh_token"]).optional(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  sub_type: z.enum(["client", "user"]).optional().describe("access tokens: whose token it is"),
  iss: z.string().optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  jti: z.string().optional(),
});

export const ZUserinfo = z.object({
  sub: z.string(),
  family_name: z.string().optional().describe("profile scope"),
  given_name: z.string().optional().describe("profile scope"),
  middle_name: z.string().optional().describe("profile scope"),
  email: z.string().optional().describe("email scope"),
  email_verified: z.boolean().optional().describe("email scope"),
  phone_number: z.string().optional().describe("phone scope, E.164 (+7…)"),
  phone_number_verified: z.boolean().optional().describe("phone scope"),
});

export const ZJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export const ZDiscovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  userinfo_endpoint: z.string(),
  jwks_uri: z.string(),
  revocation_endpoint: z.string(),
  introspection_endpoint: z.string(),
  end_session_endpoint: z.string(),
  registration_endpoint: z.string().describe("RFC 7591, for mobile application instances under a parent client that admits them"),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  introspection_endpoint_auth_methods_supported: z.array(z.string()),
  prompt_values_supported: z.array(z.string()),
  ui_locales_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  claims_parameter_supported: z.boolean(),
  request_parameter_supported: z.boolean(),
  request_uri_parameter_supported: z.boolean(),
  service_documentation: z.string(),
});
