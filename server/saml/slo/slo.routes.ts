import { z } from "zod";
import { readForm } from "../../http/form.ts";
import { queryParam } from "../../http/exchange.ts";
import { pickLang } from "../../html/texts.ts";
import { browserEndpoint } from "../../oauth/browser-endpoint.ts";
import { readCookie } from "../../http/cookies.ts";
import { SESSION_COOKIE } from "../../sessions/sessions.service.ts";
import { toAnswer } from "../sso/sso-answers.ts";
import { receiveSlo } from "./slo.service.ts";

const ZSloParams = z.looseObject({
  SAMLRequest: z.string().optional().describe("a LogoutRequest from a service provider (deflated and base64'd for HTTP-Redirect, base64'd for HTTP-POST)"),
  SAMLResponse: z.string().optional().describe("a LogoutResponse to a LogoutRequest this service carried to a service provider"),
  RelayState: z.string().optional(),
  SigAlg: z.string().optional().describe("HTTP-Redirect: rsa-sha256 or rsa-sha512"),
  Signature: z.string().optional().describe("HTTP-Redirect: the signature over the query as sent"),
});

const DESCRIPTION =
  "SAML 2.0 Single Logout (profiles §4.4), front channel, HTTP-Redirect (GET) and HTTP-POST (POST; first redirected with 303 to a one-time GET that carries the browser's cookies). A service provider's LogoutRequest must be signed " +
  "by a certificate it registered, addressed to this endpoint, recent and not used before; it ends the person's sessions here (and the tokens issued in them), " +
  "then, when this browser holds one of those sessions, it carries a signed LogoutRequest to every other service provider of them in turn (Redirect where offered, else POST), each " +
  "answering here with a signed LogoutResponse; finally the provider that asked gets our LogoutResponse: Success, or PartialLogout when one could not be told.";

/** GET and POST {ctx}/saml/slo. */
export const [samlSloGetRoute, samlSloPostRoute] = browserEndpoint(
  {
    path: "/saml/slo",
    tags: ["SAML 2.0"],
    summary: "SAML single logout service (HTTP-Redirect and HTTP-POST bindings)",
    description: DESCRIPTION,
    params: ZSloParams,
    redirect: "The next service provider's logout request, or the asking provider's logout response (HTTP-Redirect)",
    otherResponses: [
      { status: 200, description: "HTML page posting the signed logout message (HTTP-POST)" },
      { status: 400, description: "HTML page: unknown service provider, unsigned or badly signed message, replayed or stale request" },
    ],
  },
  async (request, redirectStatus) => {
    const browser = { sessionToken: readCookie(request, SESSION_COOKIE), lang: pickLang(request) };
    if (request.method === "GET") {
      const kind = queryParam(request, "SAMLResponse") !== null ? "SAMLResponse" : "SAMLRequest";
      return toAnswer(await receiveSlo({ binding: "redirect", search: request.search, kind }, browser), redirectStatus);
    }
    const form = await readForm(request);
    const kind = form.has("SAMLResponse") ? "SAMLResponse" : "SAMLRequest";
    return toAnswer(await receiveSlo({ binding: "post", message: form.get(kind) ?? "", relayState: form.get("RelayState"), kind }, browser), 303);
  },
);
