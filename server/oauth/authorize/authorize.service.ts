import type { TClientAuthRow } from "../../clients/clients.service.ts";
import { getConfig } from "../../config/config.ts";
import { hasConsent } from "../../consents/consents.service.ts";
import { bindOnSignIn } from "../../dyn-clients/dyn-clients.service.ts";
import { AppError } from "../../errors/app-error.ts";
import { findActiveSession, type TSession } from "../../sessions/sessions.service.ts";
import { createFlow, moveFlow, type TFlow } from "../../sign-in/login-flows.service.ts";
import { issueAuthorizationCode } from "../grants/authorization-codes.service.ts";
import { acrOf, demandsPhishingResistant, isPhishingResistant } from "./acr.ts";
import { clientRedirect, resolveClient, validateAuthorizationRequest, type TAuthorizationRequest, type TParams } from "./authorization-request.ts";

export type TBrowser = { sessionToken?: string; csrfCookie?: string };
export type TAuthorizeOutcome = { location: string; newCsrfCookie?: string };


/** The browser goes back to the client with an error (RFC 6749 §4.1.2.1, with `iss` per RFC 9207). */
export function errorRedirect(request: Pick<TAuthorizationRequest, "redirectUri" | "state">, e: AppError): string {
  return clientRedirect(request.redirectUri, getConfig().issuer, { error: e.def.oauth, error_description: e.details.desc ?? e.def.desc, state: request.state });
}

/** A code for the client; `signedInNow`: the person signed in during this authorization (acr.ts). */
async function codeRedirect(request: TAuthorizationRequest, session: TSession, signedInNow: boolean): Promise<string> {
  // A dynamically registered instance belongs to the first account that signs in through it.
  if (!(await bindOnSignIn(request.clientId, session.userId))) {
    return errorRedirect(request, new AppError("oauth.access_denied", { desc: "this application instance belongs to another account; register the installation again" }));
  }
  const code = await issueAuthorizationCode({
    clientId: request.clientId,
    userId: session.userId,
    sessionId: session.id,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    nonce: request.nonce ?? null,
    codeChallenge: request.codeChallenge ?? null,
    authTime: session.authTime,
    amr: session.amr,
    acr: acrOf(session.amr, signedInNow),
  });
  return clientRedirect(request.redirectUri, getConfig().issuer, { code, state: request.state });
}

/** Whether the user must be asked: always on prompt=consent, never for a first-party client otherwise. */
export async function needsConsent(client: Pick<TClientAuthRow, "id" | "firstParty">, userId: string, request: TAuthorizationRequest): Promise<boolean> {
  if (request.prompt.includes("consent")) return true;
  if (client.firstParty) return false;
  return !(await hasConsent(userId, client.id, request.scopes));
}

/** OIDC Core §3.1.2.1: prompt=login, and max_age=0 like it, ask for the password whatever session there is. */
const forcesSignIn = (request: TAuthorizationRequest) => request.prompt.includes("login") || request.maxAge === 0;

/** Otherwise the session's sign-in must be recent enough for max_age. */
function isFresh(session: TSession, request: TAuthorizationRequest, now: number): boolean {
  return request.maxAge === undefined || now - session.authTime.getTime() <= request.maxAge * 1000;
}

export const pageUrl = (page: "login" | "consent", flowId: string) => `${getConfig().issuer}/${page}?flow=${flowId}`;

/** A session counts for a request when it is fresh enough, and made with a passkey where acr_values ask for one. */
function counts(session: TSession, request: TAuthorizationRequest, now: number): boolean {
  return isFresh(session, request, now) && (!demandsPhishingResistant(request.acrValues) || isPhishingResistant(session.amr));
}

async function decide(request: TAuthorizationRequest, client: TClientAuthRow, browser: TBrowser): Promise<TAuthorizeOutcome> {
  // A session that could not count is not looked up: the sign-in replaces it anyway.
  const session = forcesSignIn(request) ? null : await findActiveSession(browser.sessionToken);
  if (!session || !counts(session, request, Date.now())) {
    if (request.prompt.includes("none")) throw new AppError("oauth.login_required", { desc: "the user is not signed in" });
    const flow = await createFlow({ request, step: "credentials", csrfCookie: browser.csrfCookie });
    return { location: pageUrl("login", flow.flowId), newCsrfCookie: flow.newCsrfCookie };
  }
  if (await needsConsent(client, session.userId, request)) {
    if (request.prompt.includes("none")) throw new AppError("oauth.consent_required", { desc: "the user has not consented to this client" });
    const flow = await createFlow({ request, step: "consent", csrfCookie: browser.csrfCookie, userId: session.userId, sessionId: session.id });
    return { location: pageUrl("consent", flow.flowId), newCsrfCookie: flow.newCsrfCookie };
  }
  return { location: await codeRedirect(request, session, false) };
}

/**
 * The authorization endpoint: a signed-in browser that needs no consent goes straight back with a
 * code; otherwise a login flow starts at the step it needs. Errors about the client or the redirect
 * URI are thrown (shown to the user); every later one goes back to the client.
 */
export async function authorize(p: TParams, browser: TBrowser): Promise<TAuthorizeOutcome> {
  const { client, redirectUri } = await resolveClient(p);
  const state = p.repeated.has("state") ? undefined : p.values.get("state")?.slice(0, 2048);
  try {
    return await decide(validateAuthorizationRequest(p, client, redirectUri), client, browser);
  } catch (e) {
    if (e instanceof AppError && e.code.startsWith("oauth.")) return { location: errorRedirect({ redirectUri, state }, e) };
    throw e;
  }
}

/** After the user signed in through the flow: on to consent, or back to the client with a code. */
export async function continueAfterSignIn(flow: TFlow, client: TClientAuthRow, session: TSession): Promise<string> {
  if (await needsConsent(client, session.userId, flow.request)) {
    await moveFlow(flow, "consent", { userId: session.userId, sessionId: session.id });
    return pageUrl("consent", flow.id);
  }
  await moveFlow(flow, "done", { userId: session.userId, sessionId: session.id });
  if (flow.request.saml) return samlReturnUrl(flow);
  return codeRedirect(flow.request, session, true);
}

/**
 * A SAML service provider's sign-in ends on the SAML side's page, which makes and posts the
 * response (or, when the consent was refused, the failure): no code, no redirect to the ACS here.
 */
const samlReturnUrl = (flow: TFlow) => `${getConfig().issuer}/saml/sso/return?flow=${encodeURIComponent(flow.id)}`;

/** After the consent screen: a code when allowed, access_denied when refused. */
export async function finishConsent(flow: TFlow, session: TSession, allowed: boolean): Promise<string> {
  // A SAML flow ends on the SAML side's page, which answers RequestDenied for a refused one.
  if (flow.request.saml) {
    await moveFlow(flow, allowed ? "done" : "refused");
    return samlReturnUrl(flow);
  }
  await moveFlow(flow, "done");
  if (!allowed) return errorRedirect(flow.request, new AppError("oauth.access_denied", { desc: "the user refused access" }));
  // The password was entered in this flow when the session is younger than the flow.
  return codeRedirect(flow.request, session, session.authTime >= flow.createdAt);
}
