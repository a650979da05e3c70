import { queryParam } from "../../http/exchange.ts";
import { pageRoute } from "../../html/page-route.ts";
import { answerAfterSignIn, resumeParkedRequest, startIdpInitiated } from "./sso.service.ts";
import { browserOf, toAnswer } from "./sso-answers.ts";
import { readCookie } from "../../http/cookies.ts";
import { pickLang } from "../../html/texts.ts";
import { SESSION_COOKIE } from "../../sessions/sessions.service.ts";
import { resumeParkedLogout } from "../slo/slo.service.ts";

// GET {ctx}/saml/sso/continue?r=… – a request that came by HTTP-POST, continued with the browser's cookies
export const samlSsoContinuePage = pageRoute("GET", "/saml/sso/continue", async (req) => toAnswer(await resumeParkedRequest(queryParam(req, "r"), browserOf(req)), 302));

// GET {ctx}/saml/sso/return?flow=… – after the sign-in pages: the signed response, posted to the service provider
export const samlSsoReturnPage = pageRoute("GET", "/saml/sso/return", async (req) => toAnswer(await answerAfterSignIn(queryParam(req, "flow"), browserOf(req)), 302));

// GET {ctx}/saml/idp-init?sp=… – a sign-in to a SAML application started here (the portal's application list)
export const samlIdpInitiatedPage = pageRoute("GET", "/saml/idp-init", async (req) => toAnswer(await startIdpInitiated(queryParam(req, "sp"), browserOf(req)), 302));

// GET {ctx}/saml/slo/continue?r=… – a logout request that came by HTTP-POST, acted on with the browser's cookies
export const samlSloContinuePage = pageRoute("GET", "/saml/slo/continue", async (req) => toAnswer(await resumeParkedLogout(queryParam(req, "r"), { sessionToken: readCookie(req, SESSION_COOKIE), lang: pickLang(req) }), 302));
