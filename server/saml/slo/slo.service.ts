import { recordEvent } from "../../audit/audit.service.ts";
import { AppError } from "../../errors/app-error.ts";
import type { TLang } from "../../html/texts.ts";
import { invalidateSessionTokens } from "../../oauth/grants/token-invalidation.service.ts";
import { endSession, findActiveSession } from "../../sessions/sessions.service.ts";
import { getConfig } from "../../config/config.ts";
import { decodeIncoming, type TIncomingMessage } from "../bindings/incoming.ts";
import { autoPostPage } from "../bindings/post.ts";
import { encodeRedirect, type TMessageKind } from "../bindings/redirect.ts";
import { getSamlSigningKey } from "../keys/saml-keys.service.ts";
import { BINDING, idpEndpoint } from "../metadata/idp-metadata.ts";
import { rememberRequestId } from "../sps/service-providers.repository.ts";
import { getSpByEntityId, getSpById, type TServiceProvider } from "../sps/service-providers.service.ts";
import type { TNameIdFormatName } from "../sps/sp-metadata.ts";
import { CLOCK_SKEW_MS, instantOf, issuedInWindow, replayGuardUntil } from "../bindings/message-window.ts";
import { handleHash, isHandle, newHandle, park, takeParked } from "../sps/parked-messages.ts";
import type { TSsoOutcome } from "../sso/sso.service.ts";
import { signEnveloped } from "../xml/dsig.ts";
import { attributeOf, NS, onlyChild, textOf } from "../xml/strict-xml.ts";
import { samlId } from "../xml/xml-write.ts";
import { logoutRequestXml, logoutResponseXml, readLogoutRequest, readLogoutResponse, type TLogoutStatus } from "./logout-messages.ts";
import { deleteLogout, findLogout, findNamedParticipants, insertLogout, participantsOfSessions, replaceHops, type THop, type TLogoutRow } from "./slo.repository.ts";

/*
 * Single logout over the front channel (SAML profiles §4.4): a provider's LogoutRequest ends the
 * person's sessions here, then the browser carries a LogoutRequest to every other provider of those
 * sessions in turn, each answering back here, and finally our LogoutResponse to the provider that
 * asked. Every logout message must be signed: an unsigned one would let any page sign people out.
 */

const LOGOUT_TTL_MS = 10 * 60_000;

const invalid = (desc: string): never => {
  throw new AppError("saml.request_invalid", { desc });
};

/** The sender (an enabled provider) and the root element, verified against its certificates; signatures are required. */
async function verifiedMessage(input: TIncomingMessage, kind: TMessageKind, localName: string): Promise<{ sp: TServiceProvider; root: Element; relayState?: string }> {
  const decoded = decodeIncoming(input, kind, { ns: NS.protocol, localName });
  const issuerOf = (el: Element) => textOf(onlyChild(el, NS.assertion, "Issuer") ?? invalid("the message names no Issuer"));
  const sp = await getSpByEntityId(issuerOf(decoded.unverified));
  if (!sp || !sp.enabled) throw new AppError("saml.unknown_sp");
  const root = decoded.verified(sp.signingCerts, true);
  if (issuerOf(root) !== sp.entityId) throw new AppError("saml.signature_invalid", { desc: "the signed message names another issuer" });
  const now = Date.now();
  if (!issuedInWindow(root.getAttribute("IssueInstant"), now)) invalid("the message is too old, or from the future, or has no time zone");
  if (root.getAttribute("Destination") !== idpEndpoint("slo")) invalid("the message is addressed to another endpoint, or names none");
  const notOnOrAfter = attributeOf(root, "NotOnOrAfter");
  if (notOnOrAfter !== null && !(instantOf(notOnOrAfter) > now - CLOCK_SKEW_MS)) invalid("the logout request has expired");
  return { sp, root, relayState: decoded.relayState };
}

/** Where a provider takes logout messages: its Redirect endpoint if it has one, else POST. */
function sloEndpoint(sp: TServiceProvider, response: boolean): { binding: string; location: string } | undefined {
  const pick = sp.slo.find((s) => s.binding === BINDING.redirect) ?? sp.slo.find((s) => s.binding === BINDING.post);
  return pick && { binding: pick.binding, location: (response && pick.responseLocation) || pick.location };
}

/** The browser carries `xml` to the provider: a signed Redirect, or an auto-posted form with an enveloped signature. */
async function send(sp: TServiceProvider, to: { binding: string; location: string }, kind: TMessageKind, xml: string, id: string, relayState: string | undefined, lang: TLang): Promise<TSsoOutcome> {
  const key = await getSamlSigningKey();
  if (to.binding === BINDING.redirect) return { location: encodeRedirect(to.location, kind, xml, relayState, key) };
  return { answer: autoPostPage(lang, { action: to.location, appName: sp.name }, kind, signEnveloped(xml, id, key, "Issuer"), relayState) };
}

/**
 * One event per single logout, when it ends: who asked (a provider, or the person here), which
 * applications were told and which did not answer, and what the asking provider hears.
 */
async function recordLogout(userId: string, origin: TServiceProvider | null, hops: THop[], status: TLogoutStatus | "Ended"): Promise<void> {
  const told = hops.filter((h) => h.state === "done").map((h) => h.spId);
  const failed = hops.filter((h) => h.state !== "done").map((h) => h.spId);
  await recordEvent("saml.signed_out", { subject: userId, ...(origin ? { clientId: origin.id } : {}) }, { origin: origin?.entityId ?? null, told, failed, status });
}

async function respondTo(origin: TServiceProvider, inResponseTo: string, status: TLogoutStatus, relayState: string | undefined, lang: TLang): Promise<TSsoOutcome> {
  const to = sloEndpoint(origin, true);
  if (!to) throw new AppError("saml.request_invalid", { desc: "you are signed out; the application has no logout address to return you to" });
  const id = samlId();
  return send(origin, to, "SAMLResponse", logoutResponseXml({ id, destination: to.location, inResponseTo, status }), id, relayState, lang);
}

type TNamedLogout = { spId: string; requestId: string; nameId: string; sessionIndexes: string[]; relayState?: string };

/** A provider asks to sign the person out: read and checked (signed, fresh, not replayed), not yet acted on. */
async function readLogout(input: TIncomingMessage): Promise<TNamedLogout> {
  const { sp, root, relayState } = await verifiedMessage(input, "SAMLRequest", "LogoutRequest");
  const request = readLogoutRequest(root);
  if (!(await rememberRequestId(sp.id, request.id, replayGuardUntil(Date.now())))) throw new AppError("saml.request_replayed");
  return { spId: sp.id, requestId: request.id, nameId: request.nameId, sessionIndexes: request.sessionIndexes, relayState: relayState?.slice(0, 1024) };
}

/**
 * The sessions the request names end here; the other providers of those sessions are told only
 * when this browser holds one of them. Otherwise the browser is someone else's (the provider's own,
 * say), and walking it from provider to provider would hand it their logout requests, which name
 * the person at each: the asking provider then hears PartialLogout.
 */
async function actOnLogout(r: TNamedLogout, browser: TSloBrowser): Promise<TSsoOutcome> {
  const sp = await getSpById(r.spId);
  if (!sp || !sp.enabled) throw new AppError("saml.unknown_sp");
  const own = await findActiveSession(browser.sessionToken);
  const named = await findNamedParticipants(sp.id, r.nameId, r.sessionIndexes);
  const sessionIds = [...new Set(named.map((p) => p.sessionId))];
  const everyone = await participantsOfSessions(sessionIds);
  const hops: THop[] = everyone.filter((p) => p.spId !== sp.id).map(({ sessionId: _, userId: __, ...p }) => ({ ...p, state: "pending" }));
  const userId = await endSessions(everyone, sp);
  if (!hops.length || userId === undefined) {
    if (userId !== undefined) await recordLogout(userId, sp, [], "Success");
    return respondTo(sp, r.requestId, "Success", r.relayState, browser.lang);
  }
  if (!own || !sessionIds.includes(own.id)) {
    await recordLogout(userId, sp, hops, "PartialLogout");
    return respondTo(sp, r.requestId, "PartialLogout", r.relayState, browser.lang);
  }
  const handle = newHandle();
  const logout: TLogoutRow = { userId, originSpId: sp.id, originRequestId: r.requestId, originRelayState: r.relayState ?? null, returnTo: null, hops, expiresAt: new Date(Date.now() + LOGOUT_TTL_MS) };
  await insertLogout(handleHash(handle), logout);
  return nextHop(handle, logout, browser.lang);
}

/**
 * A logout request that came by HTTP-POST carried none of the browser's cookies (SameSite=Lax):
 * it waits under a one-time handle for the GET it is redirected to, as a sign-on request does.
 */
async function parkLogout(r: TNamedLogout): Promise<TSsoOutcome> {
  const handle = await park({ logout: r });
  return { location: `${getConfig().issuer}/saml/slo/continue?r=${handle}` };
}

/** GET {ctx}/saml/slo/continue: the parked logout request, now with the browser's cookies. */
export async function resumeParkedLogout(handle: string | null, browser: TSloBrowser): Promise<TSsoOutcome> {
  const stored = (await takeParked(handle)) as { logout?: TNamedLogout } | undefined;
  if (!stored?.logout) throw new AppError("login.flow_not_found");
  return actOnLogout(stored.logout, browser);
}

/** Ends the participants' sessions (their tokens too, as any sign-out) and records it; the user whose they were. */
async function endSessions(participants: { sessionId: string; userId: string }[], sp: TServiceProvider): Promise<string | undefined> {
  let userId: string | undefined;
  for (const { sessionId, userId: owner } of new Map(participants.map((p) => [p.sessionId, p])).values()) {
    // Ended meanwhile (another logout, the person elsewhere): nothing more to cut off.
    if (!(await endSession(sessionId))) continue;
    userId = owner;
    await invalidateSessionTokens(owner, [sessionId]);
    await recordEvent("user.signed_out", { subject: owner, clientId: sp.id }, { sid: sessionId, by: "saml" });
  }
  return userId;
}

/** Tells the next provider, or, when all were told, answers the one that asked (or ends where the person's own sign-out goes). */
async function nextHop(handle: string, logout: TLogoutRow, lang: TLang): Promise<TSsoOutcome> {
  for (;;) {
    const i = logout.hops.findIndex((h) => h.state === "pending");
    if (i < 0) break;
    const hop = logout.hops[i]!;
    const sp = await getSpById(hop.spId);
    // A provider that registered no signing certificate could not answer in a way we can check: marked failed, not waited for.
    const to = sp && sp.enabled && sp.signingCerts.length ? sloEndpoint(sp, false) : undefined;
    const id = samlId();
    const hops = logout.hops.map((h, j): THop => (j !== i ? h : to ? { ...h, state: "sent", requestId: id } : { ...h, state: "failed" }));
    if (!(await replaceHops(handleHash(handle), logout.hops, hops))) throw new AppError("login.flow_not_found");
    logout = { ...logout, hops };
    if (!sp || !to) continue;
    const xml = logoutRequestXml({ id, destination: to.location, nameId: hop.nameId, nameIdFormat: hop.nameIdFormat as TNameIdFormatName, spEntityId: sp.entityId, sessionIndex: hop.sessionIndex });
    return send(sp, to, "SAMLRequest", xml, id, handle, lang);
  }
  // Only the request that deletes the row goes on: a second answer racing it finds nothing.
  if (!(await deleteLogout(handleHash(handle)))) throw new AppError("login.flow_not_found");
  const origin = logout.originSpId ? await getSpById(logout.originSpId) : null;
  const status: TLogoutStatus = logout.hops.every((h) => h.state === "done") ? "Success" : "PartialLogout";
  await recordLogout(logout.userId, origin, logout.hops, logout.returnTo ? "Ended" : status);
  if (logout.returnTo) return { location: logout.returnTo };
  if (!origin || !logout.originRequestId) throw new AppError("saml.unknown_sp");
  return respondTo(origin, logout.originRequestId, status, logout.originRelayState ?? undefined, lang);
}

/**
 * The person signs out here (RP-initiated logout, the portal): before the session ends, the SAML
 * applications it signed in to that take logout messages are noted; the handle to walk them with,
 * or undefined when there are none. `returnTo`: where the browser ends, already checked by the caller.
 */
export async function prepareIdpLogout(session: { id: string; userId: string }, returnTo: string): Promise<string | undefined> {
  const participants = await participantsOfSessions([session.id]);
  const hops: THop[] = [];
  for (const { sessionId: _, userId: __, ...p } of participants) {
    const sp = await getSpById(p.spId);
    if (sp?.enabled && sp.signingCerts.length && sloEndpoint(sp, false)) hops.push({ ...p, state: "pending" });
  }
  if (!hops.length) return undefined;
  const handle = newHandle();
  await insertLogout(handleHash(handle), { userId: session.userId, originSpId: null, originRequestId: null, originRelayState: null, returnTo, hops, expiresAt: new Date(Date.now() + LOGOUT_TTL_MS) });
  return handle;
}

/** After the session ended: the browser goes to the first application, and from each to the next. */
export async function walkIdpLogout(handle: string, lang: TLang): Promise<TSsoOutcome> {
  const logout = await findLogout(handleHash(handle), new Date());
  if (!logout) throw new AppError("login.flow_not_found");
  return nextHop(handle, logout, lang);
}

/** A provider answers the request we carried to it; the logout goes on. */
async function receiveLogoutResponse(input: TIncomingMessage, lang: TLang): Promise<TSsoOutcome> {
  const { sp, root, relayState } = await verifiedMessage(input, "SAMLResponse", "LogoutResponse");
  const logout = isHandle(relayState) ? await findLogout(handleHash(relayState), new Date()) : null;
  if (!logout || !relayState) throw new AppError("login.flow_not_found");
  const answer = readLogoutResponse(root);
  const i = logout.hops.findIndex((h) => h.spId === sp.id && h.state === "sent" && h.requestId === answer.inResponseTo);
  if (i < 0) throw new AppError("saml.request_invalid", { desc: "the logout response answers no request of this logout" });
  const hops = logout.hops.map((h, j): THop => (j === i ? { ...h, state: answer.success ? "done" : "failed" } : h));
  if (!(await replaceHops(handleHash(relayState), logout.hops, hops))) throw new AppError("login.flow_not_found");
  return nextHop(relayState, { ...logout, hops }, lang);
}

export type TSloBrowser = { sessionToken?: string; lang: TLang };

/** GET|POST {ctx}/saml/slo: a LogoutRequest from a provider, or a LogoutResponse to one we sent. */
export async function receiveSlo(input: TIncomingMessage & { kind: TMessageKind }, browser: TSloBrowser): Promise<TSsoOutcome> {
  if (input.kind === "SAMLResponse") return receiveLogoutResponse(input, browser.lang);
  const request = await readLogout(input);
  return input.binding === "post" ? parkLogout(request) : actOnLogout(request, browser);
}
