import { getConfig } from "../config/config.ts";
import { ACR_VALUES_SUPPORTED } from "./authorize/acr.ts";
import { OIDC_SCOPES } from "../clients/known-scopes.ts";
import { PROMPTS } from "./authorize/authorization-request.ts";
import { advertisedAuthMethods, CLIENT_AUTH_METHODS, SECRET_AUTH_METHODS } from "./token-endpoint/client-auth.ts";
import { SUPPORTED_GRANT_TYPES } from "./token-endpoint/token.steps.ts";
import { SIGNING_ALG } from "./keys/signing-keys.service.ts";

const CLAIMS = [
  "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash",
  "family_name", "given_name", "middle_name", "email", "email_verified", "phone_number", "phone_number_verified",
];

/**
 * RFC 8414 / OpenID Connect Discovery metadata: what is implemented and nothing more, so client
 * libraries never try a flow that is not there. User scopes of the contract are per client and
 * not listed (RFC 8414 lets a server leave scopes out).
 */
export function discoveryDocument() {
  const { issuer } = getConfig();
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/ae`,
    token_endpoint: `${issuer}/oauth/te`,
    userinfo_endpoint: `${issuer}/oauth/me`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [...SUPPORTED_GRANT_TYPES],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [SIGNING_ALG],
    scopes_supported: [...OIDC_SCOPES],
    claims_supported: CLAIMS,
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: advertisedAuthMethods(CLIENT_AUTH_METHODS),
    revocation_endpoint_auth_methods_supported: advertisedAuthMethods(CLIENT_AUTH_METHODS),
    introspection_endpoint_auth_methods_supported: advertisedAuthMethods(SECRET_AUTH_METHODS),
    prompt_values_supported: [...PROMPTS],
    acr_values_supported: [...ACR_VALUES_SUPPORTED],
    ui_locales_supported: ["ru", "en"],
    authorization_response_iss_parameter_supported: true,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    service_documentation: `${issuer}/api/docs`,
  };
}
