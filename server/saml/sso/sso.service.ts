import { recordEvent } from "../../audit/audit.service.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TLang } from "../../html/texts.ts";
import type { TAnswer } from "../../http/exchange.ts";
import { getConfig } from "../../config/config.ts";
import { hasConsent } from "../../consents/consents.service.ts";
import { acrOf, demandsPhishingResistant, isPhishingResistant } from "../../oauth/authorize/acr.ts";
import { pageUrl } from "../../oauth/authorize/authorize.service.ts";
import type { TAuthorizationRequest } from "../../oauth/authorize/authorization-request.ts";
import { findActiveSession, type TSession } from "../../sessions/sessions.service.ts";
import { createFlow, takeFinishedFlow } from "../../sign-in/login-flows.service.ts";
import { accountSnapshot } from "../../users/account-snapshots.ts";
import type { TAccount } from "../../users/account.ts";
import { autoPostPage } from "../bindings/post.ts";
import { getSpById, type TServiceProvider } from "../sps/service-providers.service.ts";
import { park, takeParked } from "../sps/parked-messages.ts";
import { persistentIdOf, rememberRequestId } from "../sps/service-providers.repository.ts";
import type { TNameIdFormatName } from "../sps/sp-metadata.ts";
import { samlId } from "../xml/xml-write.ts";
import { findParticipant, upsertParticipant } from "../slo/slo.repository.ts";
import { classRefOf } from "./authn-context.ts";
import type { TSamlAuthn } from "./authn-request.ts";
import { buildFailureResponse, buildSuccessResponse, type TStatusFailure } from "./response-builder.ts";
import { attributesOf, consentScopesOf, isContact } from "./released-attributes.ts";

/*
 * Single sign-on for a service provider, over the same sessions, sign-in pages and checks as the
 * OpenID Connect side: a session that counts answers at once; otherwise a login flow runs the sign-in
 * pages, and its end hands over to the return page here, which sends the response.
 */

export type TBrowser = { sessionToken?: string; csrfCookie?: string; lang: TLang; ip?: string; userAgent?: string };
export type TSsoOutcome = { answer: TAnswer } | { location: string; newCsrfCookie?: string };

type TTarget = { sp: TServiceProvider; acsUrl: string; requestId?: string; relayState?: string; nameIdFormat: TNameIdFormatName | "unsupported" };

async function postFailure(t: TTarget, failure: TStatusFailure, lang: TLang): Promise<TSsoOutcome> {
  const xml = await buildFailureResponse({ acsUrl: t.acsUrl, inResponseTo: t.requestId }, failure);
  return { answer: autoPostPage(lang, { action: t.acsUrl, appName: t.sp.name }, "SAMLResponse", xml, t.relayState) };
}

/** The NameID for this provider, or undefined when the account has none of that format (a verified address for email). */
async function nameIdOf(format: TNameIdFormatName, sp: TServiceProvider, account: TAccount, sessionId: string): Promise<string | undefined> {
  switch (format) {
    case "persistent":
      return persistentIdOf(sp.id, account.id);
    case "transient": {
      // One per session and provider: the provider's logout request names the one it was given.
      const known = await findParticipant(sessionId, sp.id);
      return known?.nameIdFormat === "transient" ? known.nameId : samlId();
    }
    case "email": {
      const email = account.attrs.email;
      return isContact(email) && email.vrf ? email.value : undefined;
    }
    case "unspecified":
      return account.id;
  }
}

/** The signed response about the session's person, posted to the provider; `signedInNow`: they signed in for this request. */
async function answerWith(t: TTarget, session: TSession, signedInNow: boolean, browser: TBrowser): Promise<TSsoOutcome> {
  const snapshot = await accountSnapshot(session.userId);
  if (!snapshot) throw new AppError("login.flow_not_found");
  // Locked while signed in: told so (it is their own session), and nothing is sent to the provider.
  if (snapshot.account.locked) throw new AppError("login.account_locked");
  const account = snapshot.account;
  if (t.nameIdFormat === "unsupported") return postFailure(t, "InvalidNameIDPolicy", browser.lang);
  const nameId = await nameIdOf(t.nameIdFormat, t.sp, account, session.id);
  if (nameId === undefined) return postFailure(t, "InvalidNameIDPolicy", browser.lang);
  // Single logout finds the provider through this, and its logout request names the SessionIndex.
  const sessionIndex = await upsertParticipant({ sessionId: session.id, spId: t.sp.id, nameId, nameIdFormat: t.nameIdFormat });
  const xml = await buildSuccessResponse({
    spEntityId: t.sp.entityId,
    ...(t.sp.assertionEncryption !== "off" && t.sp.encryptionCert ? { encryptTo: { certificatePem: t.sp.encryptionCert, cipher: t.sp.assertionEncryption } } : {}),
    acsUrl: t.acsUrl,
    inResponseTo: t.requestId,
    nameId: { format: t.nameIdFormat, value: nameId },
    authnInstant: session.authTime,
    sessionIndex,
    sessionNotOnOrAfter: session.expiresAt,
    classRef: classRefOf(acrOf(session.amr, signedInNow)),
    attributes: await attributesOf(account, t.sp),
  });
  await recordEvent("saml.signed_in", { subject: account.id, clientId: t.sp.id, ip: browser.ip, userAgent: browser.userAgent }, { sp: t.sp.entityId, nameIdFormat: t.nameIdFormat, reusedSession: !signedInNow });
  return { answer: autoPostPage(browser.lang, { action: t.acsUrl, appName: t.sp.name }, "SAMLResponse", xml, t.relayState) };
}

/**
 * Whether the person must allow the provider first: only one its administrator set to ask, and
 * only until the person allowed everything it is sent now.
 */
async function mustAsk(t: TTarget, userId: string): Promise<boolean> {
  return t.sp.askConsent && !(await hasConsent(userId, t.sp.id, consentScopesOf(t.sp, t.nameIdFormat)));
}

/** A session that counts: the response at once, or first the consent page (NoPassive where the provider forbade pages). */
async function answerOrAsk(t: TTarget, session: TSession, browser: TBrowser, passive: boolean, request: TAuthorizationRequest): Promise<TSsoOutcome> {
  if (!(await mustAsk(t, session.userId))) return answerWith(t, session, false, browser);
  if (passive) return postFailure(t, "NoPassive", browser.lang);
  const flow = await createFlow({ request, step: "consent", csrfCookie: browser.csrfCookie, userId: session.userId, sessionId: session.id });
  return { location: pageUrl("consent", flow.flowId), newCsrfCookie: flow.newCsrfCookie };
}

/** The login flow's request: the consent page names the release as scopes. */
function flowRequestOf(r: TSamlAuthn & { sp: TServiceProvider }): TAuthorizationRequest {
  return {
    clientId: r.spId,
    redirectUri: r.acsUrl,
    scopes: consentScopesOf(r.sp, r.nameIdFormat),
    prompt: r.forceAuthn ? ["login"] : [],
    ...(Array.isArray(r.acrValues) ? { acrValues: r.acrValues } : {}),
    saml: { requestId: r.requestId, acsUrl: r.acsUrl, relayState: r.relayState, nameIdFormat: r.nameIdFormat },
  };
}

/** A verified request, answered once: at once for a session that counts, or after the sign-in pages. */
export async function continueAuthnRequest(r: TSamlAuthn & { sp: TServiceProvider }, browser: TBrowser): Promise<TSsoOutcome> {
  const target: TTarget = { sp: r.sp, acsUrl: r.acsUrl, requestId: r.requestId, relayState: r.relayState, nameIdFormat: r.nameIdFormat };
  if (r.acrValues === "unsatisfiable") return postFailure(target, "NoAuthnContext", browser.lang);
  const session = r.forceAuthn ? null : await findActiveSession(browser.sessionToken);
  const counts = session && (!demandsPhishingResistant(Array.isArray(r.acrValues) ? r.acrValues : undefined) || isPhishingResistant(session.amr));
  if (session && counts) return answerOrAsk(target, session, browser, r.isPassive, flowRequestOf(r));
  if (r.isPassive) return postFailure(target, "NoPassive", browser.lang);
  const flow = await createFlow({ request: flowRequestOf(r), step: "credentials", csrfCookie: browser.csrfCookie });
  return { location: `${getConfig().issuer}/login?flow=${flow.flowId}`, newCsrfCookie: flow.newCsrfCookie };
}

/**
 * IdP-initiated sign-on (profiles §4.1.5): an unsolicited response to the provider's default
 * assertion consumer service, for a provider that allows it, after a sign-in when the session does
 * not count. Nothing the link carries chooses where the response goes.
 */
export async function startIdpInitiated(spId: string | null, browser: TBrowser): Promise<TSsoOutcome> {
  const sp = spId && spId.length <= 64 ? await getSpById(spId) : null;
  if (!sp || !sp.enabled || !sp.allowIdpInitiated) throw new AppError("saml.unknown_sp", { desc: "this application cannot be opened from here" });
  const acsUrl = (sp.acs.find((a) => a.isDefault) ?? sp.acs[0]!).location;
  const target: TTarget = { sp, acsUrl, relayState: sp.defaultRelayState ?? undefined, nameIdFormat: sp.nameIdFormat };
  const request: TAuthorizationRequest = { clientId: sp.id, redirectUri: acsUrl, scopes: consentScopesOf(sp, sp.nameIdFormat), prompt: [], saml: { acsUrl, relayState: target.relayState, nameIdFormat: sp.nameIdFormat } };
  const session = await findActiveSession(browser.sessionToken);
  if (session) return answerOrAsk(target, session, browser, false, request);
  const flow = await createFlow({ request, step: "credentials", csrfCookie: browser.csrfCookie });
  return { location: `${getConfig().issuer}/login?flow=${flow.flowId}`, newCsrfCookie: flow.newCsrfCookie };
}

/** Remembers the request's ID: a provider's request is answered once (SAML profiles §4.1.4.5). */
export async function claimRequest(r: TSamlAuthn): Promise<void> {
  if (!(await rememberRequestId(r.spId, r.requestId, new Date(r.expiresAt)))) throw new AppError("saml.request_replayed");
}

/**
 * A request that came by HTTP-POST carried none of the browser's cookies (they are SameSite=Lax), so
 * it waits under a one-time handle for the GET it is redirected to, which carries them.
 */
export async function parkRequest(r: TSamlAuthn): Promise<string> {
  // The request's own fields only: the provider (with its metadata) is read again when the GET comes.
  const { spId, requestId, acsUrl, relayState, forceAuthn, isPassive, nameIdFormat, acrValues, expiresAt } = r;
  const parked: TSamlAuthn = { spId, requestId, acsUrl, relayState, forceAuthn, isPassive, nameIdFormat, acrValues, expiresAt };
  return park(parked);
}

/** Whether `acsUrl` is still one the provider registered (its metadata may have changed while the person signed in). */
function stillRegistered(sp: TServiceProvider, acsUrl: string): boolean {
  return sp.acs.some((a) => a.location === acsUrl);
}

export async function resumeParkedRequest(handle: string | null, browser: TBrowser): Promise<TSsoOutcome> {
  const stored = (await takeParked(handle)) as Partial<TSamlAuthn> | undefined;
  // A parked logout request is not a sign-on request: its handle is spent here for nothing.
  if (!stored || typeof stored.spId !== "string" || typeof stored.acsUrl !== "string") throw new AppError("login.flow_not_found");
  const sp = await getSpById(stored.spId);
  if (!sp || !sp.enabled) throw new AppError("saml.unknown_sp");
  if (!stillRegistered(sp, stored.acsUrl)) throw new AppError("saml.acs_not_registered");
  return continueAuthnRequest({ ...(stored as TSamlAuthn), sp }, browser);
}

/** The return page after the sign-in pages: the flow is taken once, by the browser whose session it made. */
export async function answerAfterSignIn(flowId: string | null, browser: TBrowser): Promise<TSsoOutcome> {
  const session = await findActiveSession(browser.sessionToken);
  // Only the browser whose session the flow made takes it: another one loading the link spends nothing.
  const flow = session ? await takeFinishedFlow(flowId, session.id) : null;
  const saml = flow?.request.saml;
  if (!session || !flow || !saml) throw new AppError("login.flow_not_found");
  const sp = await getSpById(flow.clientId);
  if (!sp || !sp.enabled) throw new AppError("saml.unknown_sp");
  if (!stillRegistered(sp, saml.acsUrl)) throw new AppError("saml.acs_not_registered");
  const target: TTarget = { sp, acsUrl: saml.acsUrl, requestId: saml.requestId, relayState: saml.relayState, nameIdFormat: saml.nameIdFormat as TNameIdFormatName | "unsupported" };
  // Refused on the consent page; or a consent this provider needs is missing (it was asked to ask meanwhile, or sends more now).
  if (flow.refused || (await mustAsk(target, session.userId))) return postFailure(target, "RequestDenied", browser.lang);
  return answerWith(target, session, session.authTime >= flow.createdAt, browser);
}
