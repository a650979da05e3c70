import { z } from "zod";
import { readForm } from "../../http/form.ts";
import { Answer } from "../../http/exchange.ts";
import { browserEndpoint } from "../../oauth/browser-endpoint.ts";
import { getConfig } from "../../config/config.ts";
import { readAuthnRequest } from "./authn-request.ts";
import { claimRequest, continueAuthnRequest, parkRequest } from "./sso.service.ts";
import { browserOf, toAnswer } from "./sso-answers.ts";

const ZSsoParams = z.looseObject({
  SAMLRequest: z.string().optional().describe("the AuthnRequest: deflated and base64'd (HTTP-Redirect), or base64'd (HTTP-POST)"),
  RelayState: z.string().optional().describe("returned as sent, up to 1,024 characters"),
  SigAlg: z.string().optional().describe("HTTP-Redirect: rsa-sha256 or rsa-sha512"),
  Signature: z.string().optional().describe("HTTP-Redirect: the signature over the query as sent"),
});

const DESCRIPTION =
  "SAML 2.0 Web Browser SSO (profiles §4.1): a service provider's AuthnRequest over the HTTP-Redirect binding (GET) or the HTTP-POST binding (POST). " +
  "The request must come from a registered, enabled service provider, signed by a certificate it registered (unless it was let off), addressed to this " +
  "endpoint, issued in the last five minutes (two minutes of clock skew allowed), with an ID not used before and an assertion consumer service it registered " +
  "(by URL or index). Otherwise the browser is shown a page and nothing is sent anywhere. A browser whose session counts gets the signed Response at once, " +
  "posted to the service provider by a form; otherwise it goes to the sign-in pages (the second factor, passkeys and account checks apply as for any sign-in). " +
  "ForceAuthn asks for a new sign-in; IsPassive answers NoPassive instead of showing a page; RequestedAuthnContext with the phishing-resistant class asks for a passkey. " +
  "A POST request is first redirected (303) to a one-time GET, which carries the browser's cookies.";

/** GET and POST {ctx}/saml/sso. */
export const [samlSsoGetRoute, samlSsoPostRoute] = browserEndpoint(
  {
    path: "/saml/sso",
    tags: ["SAML 2.0"],
    summary: "SAML single sign-on service (HTTP-Redirect and HTTP-POST bindings)",
    description: DESCRIPTION,
    params: ZSsoParams,
    redirect: "To the sign-in page, or (POST) to the one-time GET that continues the request",
    otherResponses: [
      { status: 200, description: "HTML page posting the signed SAMLResponse to the service provider's assertion consumer service" },
      { status: 400, description: "HTML page: unknown service provider, bad signature, replayed or stale request, unregistered assertion consumer service" },
    ],
  },
  async (request, redirectStatus) => {
    if (request.method === "GET") {
      const r = await readAuthnRequest({ binding: "redirect", search: request.search });
      await claimRequest(r);
      return toAnswer(await continueAuthnRequest(r, browserOf(request)), redirectStatus);
    }
    const form = await readForm(request);
    const r = await readAuthnRequest({ binding: "post", message: form.get("SAMLRequest") ?? "", relayState: form.get("RelayState") });
    await claimRequest(r);
    const handle = await parkRequest(r);
    return Answer.redirect(303, `${getConfig().issuer}/saml/sso/continue?r=${handle}`);
  },
);
