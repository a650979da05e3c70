import { z } from "zod";
import { DYN_REG_SCOPE } from "../clients/clients.schemas.ts";
import { defineRoute } from "../caller/define-route.ts";
import { parseJsonBody } from "../http/parse.ts";
import { registerInstance } from "./dyn-clients.service.ts";
import { ZRegistrationMetadata, ZRegistrationResponse } from "./dyn-clients.schemas.ts";

export const dynamicRegistrationRoute = defineRoute(
  {
    method: "POST",
    path: "/oauth/register",
    summary: "Register a mobile application instance (RFC 7591)",
    description:
      "Each installation of a mobile application registers itself and gets a client_id of its own (with a client_secret, shown once, unless it asks " +
      "for token_endpoint_auth_method `none`). The request carries an initial access token (RFC 7591 §3): a client_credentials token of the " +
      `parent client with the \`${DYN_REG_SCOPE}\` scope, which the application's back end obtains and hands to the installation. The parent must ` +
      "admit the `software_id` (`dynamicRegistration.softwareIds` in the import document or the console). The instance inherits the parent's " +
      "redirect URIs, user scopes, grant types (authorization_code, refresh_token; never client_credentials), first-party flag and token " +
      "lifetimes; requested values beyond them are refused. The instance is free until an account signs in through it (authorization code flow " +
      "with its client_id) or registers with it (bindDynClient); then it is listed under the user's /apps and removable there. Free instances are " +
      "forgotten after 7 days. Errors follow RFC 7591 §3.2.2 (invalid_client_metadata, invalid_redirect_uri); a missing or wrong token RFC 6750.",
    tags: ["OAuth 2.0"],
    auth: { kind: "bearer", system: [DYN_REG_SCOPE] },
    errorShape: "oauth",
    jsonBody: ZRegistrationMetadata,
    query: z.object({}),
    response: { status: 201, description: "The registered instance", schema: ZRegistrationResponse, headers: { pragma: "no-cache" } },
    errors: ["oauth.invalid_client_metadata", "oauth.invalid_redirect_uri", "request.malformed", "request.unsupported_media_type", "request.too_large"],
  },
  async ({ ctx, request }) => {
    // Authentication admitted only system-mode tokens: the caller is the parent client.
    const parentId = ctx.actor.mode === "system" ? ctx.actor.clientId : "";
    return registerInstance(parentId, await parseJsonBody(request));
  },
);
