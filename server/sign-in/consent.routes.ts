import { getClientForAuth } from "../clients/clients.service.ts";
import { grantConsent, recordConsentDenied } from "../consents/consents.service.ts";
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { browserActor } from "../http/request-context.ts";
import { finishConsent } from "../oauth/authorize/authorize.service.ts";
import { readForm } from "../http/form.ts";
import { findActiveSession, SESSION_COOKIE, type TSession } from "../sessions/sessions.service.ts";
import { displayNameOf } from "../users/account.ts";
import { readAccount } from "../users/users.service.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { checkCsrf, csrfFieldOf, loadFlow, type TFlow } from "./login-flows.service.ts";
import { pickLang } from "../html/texts.ts";
import { textsFor } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { pageRoute, seeOther } from "../html/page-route.ts";
import { consentView } from "./pages/views.ts";
import { queryParam, type TIncoming } from "../http/exchange.ts";

/** The consent step of a flow, asked in the browser whose session the flow belongs to. */
async function consentFlow(req: TIncoming): Promise<{ flow: TFlow; session: TSession }> {
  const flow = await loadFlow(queryParam(req, "flow"));
  if (flow.step !== "consent") throw new AppError("login.flow_not_found");
  const session = await findActiveSession(readCookie(req, SESSION_COOKIE));
  if (!session || session.id !== flow.sessionId) throw new AppError("login.flow_not_found");
  return { flow, session };
}

/** How the user is greeted: their name when the account has one, else their sub. */
async function displayName(userId: string): Promise<string> {
  return displayNameOf(await readAccount(userId)) ?? userId;
}

// GET {ctx}/consent?flow=… – ask the user to allow the client the scopes it requested
export const consentPage = pageRoute("GET", "/consent", async (req) => {
  const { flow, session } = await consentFlow(req);
  const csrf = csrfFieldOf(flow, readCookie(req, CSRF_COOKIE));
  if (!csrf) throw new AppError("login.csrf_failed");
  const client = await getClientForAuth(flow.clientId);
  if (!client?.enabled) throw new AppError("login.flow_not_found");
  const lang = pickLang(req, flow.request.uiLocales);
  const markup = consentView({
    lang,
    t: textsFor(lang),
    clientName: client.name,
    userName: await displayName(session.userId),
    scopes: flow.request.scopes,
    action: pageLink("/consent", { flow: flow.id, lang }),
    switchUrl: pageLink("/consent", { flow: flow.id, lang: lang === "ru" ? "en" : "ru" }),
    csrf,
  });
  return htmlResponse(markup, 200);
});

// POST {ctx}/consent?flow=… – allow or deny; the browser goes back to the client either way
export const consentSubmit = pageRoute("POST", "/consent", async (req, ctx) => {
  const { flow, session } = await consentFlow(req);
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const decision = form.get("decision");
  if (decision !== "allow" && decision !== "deny") throw new AppError("oauth.invalid_request", { desc: "decision must be allow or deny" });
  ctx.clientId = flow.clientId;
  const actor = browserActor(req);
  if (decision === "allow") await grantConsent(session.userId, flow.clientId, flow.request.scopes, actor);
  else await recordConsentDenied(session.userId, flow.clientId, flow.request.scopes, actor);
  return seeOther(await finishConsent(flow, session, decision === "allow"));
});
