import { randomBytes } from "node:crypto";
import { demandsPhishingResistant } from "../oauth/authorize/acr.ts";
import { hashOpaqueToken, sameSecret } from "../crypto/opaque-token.ts";
import { AppError } from "../errors/app-error.ts";
import { csrfCookieFor, csrfField, csrfMatches } from "./csrf.ts";
import type { TAuthorizationRequest } from "../oauth/authorize/authorization-request.ts";
import { advanceFlow, findFlow, insertFlow, type TFlowRow, type TFlowStep } from "./login-flows.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredFlows } from "./login-flows.repository.ts";

/** How long a person has to finish signing in. */
export const FLOW_TTL_MS = 30 * 60_000;

export type TFlow = Omit<TFlowRow, "request"> & { request: TAuthorizationRequest };

const FLOW_ID = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * Starts a flow for this browser. The browser's CSRF cookie is reused when it has one, so two
 * sign-ins in two tabs do not invalidate each other's forms; otherwise a new one is returned to set.
 */
export async function createFlow(input: {
  request: TAuthorizationRequest;
  step: Exclude<TFlowStep, "done">;
  csrfCookie?: string;
  userId?: string;
  sessionId?: string;
}): Promise<{ flowId: string; newCsrfCookie?: string }> {
  const { cookie, isNew } = csrfCookieFor(input.csrfCookie);
  const flowId = randomBytes(18).toString("base64url");
  await insertFlow({
    id: flowId,
    clientId: input.request.clientId,
    request: input.request,
    step: input.step,
    csrfHash: hashOpaqueToken(cookie),
    userId: input.userId ?? null,
    sessionId: input.sessionId ?? null,
    expiresAt: new Date(Date.now() + FLOW_TTL_MS),
  });
  return { flowId, newCsrfCookie: isNew ? cookie : undefined };
}

/** The flow a page is handed; a finished or unknown one is not found, an old one expired. */
export async function loadFlow(id: string | null | undefined, now = new Date()): Promise<TFlow> {
  const row = id && FLOW_ID.test(id) ? await findFlow(id) : null;
  if (!row || row.step === "done" || row.step === "refused" || row.step === "answered") throw new AppError("login.flow_not_found");
  if (row.expiresAt <= now) throw new AppError("login.flow_expired");
  return { ...row, request: row.request as TAuthorizationRequest };
}

/**
 * A finished flow whose answer is sent from another page (a SAML response): taken once, by the
 * session it finished with, moved from done to answered, so a second load of that page finds
 * nothing. Null when unknown, taken, expired or another session's.
 */
export async function takeFinishedFlow(id: string | null | undefined, sessionId: string, now = new Date()): Promise<(TFlow & { refused: boolean }) | null> {
  const row = id && FLOW_ID.test(id) ? await findFlow(id) : null;
  // The session is set once, when the flow finished: a browser with another session cannot spend it.
  if (!row || (row.step !== "done" && row.step !== "refused") || row.sessionId !== sessionId || row.expiresAt <= now) return null;
  if (!(await advanceFlow(row.id, row.step, "answered"))) return null;
  return { ...row, step: "answered", refused: row.step === "refused", request: row.request as TAuthorizationRequest };
}

/** The CSRF field of a flow's form, when the browser holds the cookie the flow was started with. */
export function csrfFieldOf(flow: Pick<TFlow, "id" | "csrfHash">, cookie: string | undefined): string | undefined {
  return cookie && sameSecret(hashOpaqueToken(cookie), flow.csrfHash) ? csrfField(cookie, flow.id) : undefined;
}

/** Refuses a submission whose field does not match this flow and this browser's cookie. */
export function checkCsrf(flow: Pick<TFlow, "id" | "csrfHash">, cookie: string | undefined, field: string | undefined): void {
  if (!csrfFieldOf(flow, cookie) || !csrfMatches(cookie, flow.id, field)) throw new AppError("login.csrf_failed");
}

/**
 * Moves the flow on from the step it was read at. Once its sign-in is complete (consent, done) it
 * holds no external account: completeSignIn bound or dropped the one it held when it was read, and
 * one a callback held meanwhile goes too, with the provider's tokens it carries.
 */
export async function moveFlow(flow: TFlow, to: TFlowStep, data: { userId?: string; sessionId?: string; amr?: string[] } = {}): Promise<void> {
  const past = to === "consent" || to === "done" ? { externalIdentity: null } : {};
  // A second submission of the same form finds the flow moved on already.
  if (!(await advanceFlow(flow.id, flow.step, to, { ...data, ...past }))) throw new AppError("login.flow_not_found");
}

/**
 * A QR sign-in inherits the confirming sign-in's time, so it cannot answer an application that asks
 * for a fresh one (prompt=login, max_age): those flows do not offer it.
 */
export function offersQr(flow: Pick<TFlow, "request">): boolean {
  // Nor where the application asked for a passkey: a QR sign-in is never one (acr.ts).
  return !flow.request.prompt.includes("login") && flow.request.maxAge === undefined && !demandsPhishingResistant(flow.request.acrValues);
}
