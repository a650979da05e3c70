import { z } from "zod";
import { readCookie, serializeCookie } from "../../http/cookies.ts";
import { SESSION_COOKIE } from "../../sessions/sessions.service.ts";
import { CSRF_COOKIE } from "../../sign-in/csrf.ts";
import { browserEndpoint } from "../browser-endpoint.ts";
import { readParams } from "./authorization-request.ts";
import { authorize } from "./authorize.service.ts";
import { Answer } from "../../http/exchange.ts";

const ZAuthorizationRequest = z.looseObject({
  response_type: z.string().optional().describe("code"),
  client_id: z.string().optional(),
  redirect_uri: z.string().optional().describe("exactly as registered for the client"),
  scope: z.string().optional().describe("openid, profile, email, phone, offline_access and the user scopes the client may request"),
  state: z.string().optional(),
  nonce: z.string().optional(),
  code_challenge: z.string().optional().describe("PKCE (RFC 7636); required for public clients"),
  code_challenge_method: z.string().optional().describe("S256 (plain is refused)"),
  prompt: z.string().optional().describe("none, login or consent"),
  max_age: z.string().optional(),
  ui_locales: z.string().optional().describe("ru, en"),
  login_hint: z.string().optional(),
  response_mode: z.string().optional().describe("query"),
});

const DESCRIPTION =
  "OAuth 2.0 authorization code flow with PKCE (S256) and OpenID Connect. PKCE is required of every client, confidential ones too (RFC 9700), " +
  "unless an administrator let a confidential client off (pkceOptional); a request without it is refused with invalid_request. A browser with a session that needs no consent goes back at once with " +
  "`code`, `state` and `iss` (RFC 9207); otherwise to the sign-in or consent page. An unknown client or a redirect_uri not registered exactly is " +
  "shown as an HTML page and never redirected; every other error goes back to the client as `error`, `error_description`, `state` and `iss` " +
  "(RFC 6749 §4.1.2.1; login_required and consent_required for prompt=none).";

/** GET and POST {ctx}/oauth/ae. */
export const [authorizeGetRoute, authorizePostRoute] = browserEndpoint(
  {
    path: "/oauth/ae",
    summary: "Authorization endpoint",
    description: DESCRIPTION,
    params: ZAuthorizationRequest,
    redirect: "Redirect to the client, or to the sign-in or consent page",
    otherResponses: [{ status: 400, description: "HTML page: unknown client, or redirect_uri missing or not registered" }],
  },
  async (request, redirectStatus) => {
    const outcome = await authorize(await readParams(request), {
      sessionToken: readCookie(request, SESSION_COOKIE),
      csrfCookie: readCookie(request, CSRF_COOKIE),
    });
    return Answer.redirect(redirectStatus, outcome.location, outcome.newCsrfCookie ? { "set-cookie": serializeCookie(CSRF_COOKIE, outcome.newCsrfCookie) } : {});
  },
);
