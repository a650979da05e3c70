import { z } from "zod";
import { clearCookie, readCookie, serializeCookie } from "../../http/cookies.ts";
import { browserActor } from "../../http/request-context.ts";
import { findSessionToEnd, SESSION_COOKIE } from "../../sessions/sessions.service.ts";
import { CSRF_COOKIE, csrfCookieFor, csrfField, csrfMatches } from "../../sign-in/csrf.ts";
import { pickLang } from "../../html/texts.ts";
import { htmlResponse, pageLink } from "../../html/layout.ts";
import { browserEndpoint } from "../browser-endpoint.ts";
import { logoutView } from "./logout-view.ts";
import { readParams } from "../authorize/authorization-request.ts";
import { afterLogout, needsConfirmation, resolveLogout, signOut } from "./logout.service.ts";
import { Answer, type TAnswer, type TIncoming } from "../../http/exchange.ts";
import { getConfig } from "../../config/config.ts";
import { prepareIdpLogout, walkIdpLogout } from "../../saml/slo/slo.service.ts";
import { toAnswer } from "../../saml/sso/sso-answers.ts";

const ZLogoutRequest = z.looseObject({
  id_token_hint: z.string().optional().describe("an ID token this service issued to the client; signs out at once when it names the signed-in user"),
  client_id: z.string().optional(),
  post_logout_redirect_uri: z.string().optional().describe("registered exactly for the client"),
  state: z.string().optional(),
  ui_locales: z.string().optional(),
});

const DESCRIPTION =
  "OpenID Connect RP-Initiated Logout. Ends the browser's session and sends it to post_logout_redirect_uri (with `state`), which must be registered " +
  "exactly for the client named by id_token_hint or client_id. Without an id_token_hint naming the signed-in user, the user confirms on an HTML page first. " +
  "A bad hint or an unregistered URI is shown as an HTML page, never redirected to. When the session signed in to SAML applications that take logout " +
  "messages, the browser first carries a signed LogoutRequest to each of them in turn (see /saml/slo), then goes on as above.";

async function logout(request: TIncoming, redirectStatus: number): Promise<TAnswer> {
  const params = await readParams(request);
  const logoutRequest = await resolveLogout(params);
  const session = await findSessionToEnd(readCookie(request, SESSION_COOKIE));
  const csrf = csrfCookieFor(readCookie(request, CSRF_COOKIE));
  const binding = `logout:${session?.id}`;
  const confirmed = request.method === "POST" && csrfMatches(csrf.cookie, binding, params.values.get("csrf_token"));
  const lang = pickLang(request, logoutRequest.uiLocales);
  if (needsConfirmation(logoutRequest, session) && !confirmed) {
    const hidden = {
      client_id: logoutRequest.client?.id,
      post_logout_redirect_uri: logoutRequest.postLogoutRedirectUri,
      state: logoutRequest.state,
      ui_locales: logoutRequest.uiLocales,
      csrf_token: csrfField(csrf.cookie, binding),
    };
    const markup = logoutView({ lang, action: pageLink("/oauth/logout", { lang }), hidden, done: false });
    return htmlResponse(markup, 200, csrf.isNew ? { "set-cookie": serializeCookie(CSRF_COOKIE, csrf.cookie) } : {});
  }
  const location = afterLogout(logoutRequest);
  const cleared = { "set-cookie": clearCookie(SESSION_COOKIE) };
  // SAML applications of the session that take logout messages are told, one after another, before
  // the browser goes where it would have gone (the "signed out" page is this endpoint without a session).
  const samlLogout = session ? await prepareIdpLogout(session, location ?? `${getConfig().issuer}/oauth/logout?lang=${lang}`) : undefined;
  await signOut(session, logoutRequest, browserActor(request));
  if (samlLogout) {
    const first = toAnswer(await walkIdpLogout(samlLogout, lang), 302);
    return new Answer(first.status, { ...first.headers, ...cleared }, first.body);
  }
  if (location) return new Answer(redirectStatus, { location, "cache-control": "no-store", ...cleared });
  return htmlResponse(logoutView({ lang, done: true }), 200, cleared);
}

/** GET and POST {ctx}/oauth/logout. */
export const [logoutGetRoute, logoutPostRoute] = browserEndpoint(
  {
    path: "/oauth/logout",
    summary: "End the user's session (RP-initiated logout)",
    description: DESCRIPTION,
    params: ZLogoutRequest,
    redirect: "Signed out; back to post_logout_redirect_uri",
    otherResponses: [
      { status: 200, description: "HTML page: the confirmation form, or \"signed out\" when no post_logout_redirect_uri was given" },
      { status: 400, description: "HTML page: invalid id_token_hint, or post_logout_redirect_uri not registered" },
    ],
  },
  logout,
);
