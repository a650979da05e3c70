import { getConfig } from "../config/config.ts";
import { SECRET_AUTH_METHODS } from "./token-endpoint/client-auth.ts";
import { SUPPORTED_GRANT_TYPES } from "./token-endpoint/token.steps.ts";

/**
 * RFC 8414 / OpenID discovery metadata: what is implemented today and nothing more, so client
 * libraries never try a flow that is not there yet.
 */
export function discoveryDocument() {
  const { issuer } = getConfig();
  return {
    issuer,
    token_endpoint: `${issuer}/oauth/te`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    grant_types_supported: [...SUPPORTED_GRANT_TYPES],
    token_endpoint_auth_methods_supported: SECRET_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: SECRET_AUTH_METHODS,
    // No authorization endpoint yet: nothing is served through the front channel.
    response_types_supported: [],
    scopes_supported: [],
    service_documentation: `${issuer}/api/docs`,
  };
}
