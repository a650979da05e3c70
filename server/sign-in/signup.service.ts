import { randomBytes } from "node:crypto";
import { demandsPhishingResistant } from "../oauth/authorize/acr.ts";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { getClientForAuth } from "../clients/clients.service.ts";
import { findConfirmationsOf } from "../contacts/contact-change.service.ts";
import { getConfig } from "../config/config.ts";
import { hashOpaqueToken } from "../crypto/opaque-token.ts";
import { AppError, type TInputItem } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { continueAfterSignIn } from "../oauth/authorize/authorize.service.ts";
import { confirmRegistration } from "../registration/confirm-registration.service.ts";
import { instructionFor } from "../registration/instructions.ts";
import { register } from "../registration/registration.service.ts";
import type { TConfirmRegistrationRequest, TInstruction } from "../registration/registration.schemas.ts";
import type { TSession } from "../sessions/sessions.service.ts";
import { loadFlow } from "./login-flows.service.ts";
import { findSignUpFlow, finishSignUpFlow, insertSignUpFlow, type TSignUpFlowRow } from "./signup-flows.repository.ts";
import type { TThrottleKey } from "./throttle.service.ts";
import { releaseAttempt, reserveSignInAttempt, settleFailedAttempt } from "./throttle.service.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteExpiredSignUpFlows } from "./signup-flows.repository.ts";

/** How long a person has to enter the codes of a sign-up. */
export const SIGNUP_TTL_MS = 60 * 60_000;

/**
 * Sign-ups per address that sent codes or met a taken e-mail or phone: each sends a message (SMS
 * cost a sender pays), and a taken contact is the one thing the page tells about other accounts.
 * 10, then 1 min, 2 min … up to 15 min; at most 30 an hour.
 */
const SIGNUP_IP_POLICY = { threshold: 10, baseLockMs: 60_000, maxLockMs: 15 * 60_000, hourlyMax: 30, forgetMs: 24 * 3_600_000 };

export type TSignUpFlow = TSignUpFlowRow;
export type TStartResult = { ok: true; flowId: string } | { ok: false; status: 400 | 409 | 429; items: TInputItem[]; retryAfterS?: number };

/**
 * Registers what the sign-up form gave, as the registration API would (codes go to every contact),
 * and starts the flow that waits for the codes in this browser. Refusals come back as the
 * registration service words them, by field.
 */
export async function startSignUp(input: {
  attrs: Record<string, unknown>;
  /** Undefined: the account gets a passkey instead, once its codes are confirmed (signup-passkey.service.ts). */
  password: string | undefined;
  locale: TLocale;
  csrfCookie: string;
  loginFlow?: { id: string; clientId: string };
  actor: TEventActor;
}): Promise<TStartResult> {
  const throttle: TThrottleKey | undefined = input.actor.ip ? { key: `signup-ip:${input.actor.ip}`, policy: SIGNUP_IP_POLICY } : undefined;
  if (throttle) {
    const reserved = await reserveSignInAttempt([throttle]);
    if (!reserved.allowed) {
      await recordEvent("registration.throttled", input.actor, { retryAfter: reserved.retryAfterS });
      return { ok: false, status: 429, items: [], retryAfterS: reserved.retryAfterS };
    }
  }
  // Every reservation is settled: it counts (codes went out, or a taken contact was told) unless the
  // form only had mistakes in it.
  let counts = true;
  let context: string;
  try {
    const registered = await register({
      attrs: input.attrs,
      password: input.password,
      dynClientIds: [],
      contactFlag: "verified",
      mode: getConfig().registrationMode,
      clientId: input.loginFlow?.clientId ?? "",
      locale: input.locale,
      actor: input.actor,
    });
    context = registered.context;
  } catch (e) {
    if (!(e instanceof AppError) || !e.code.startsWith("registration.")) throw e;
    counts = e.code === "registration.conflict";
    return { ok: false, status: e.status === 409 ? 409 : 400, items: e.details.items ?? [] };
  } finally {
    if (throttle) await (counts ? settleFailedAttempt([throttle]) : releaseAttempt(throttle.key));
  }
  // The form always sends a contact unconfirmed, so there is always something to confirm.
  if (!context) throw new AppError("internal", { desc: "a sign-up registered nothing to confirm" });
  const flowId = randomBytes(18).toString("base64url");
  await insertSignUpFlow({
    id: flowId,
    csrfHash: hashOpaqueToken(input.csrfCookie),
    registrationContext: context,
    loginFlowId: input.loginFlow?.id ?? null,
    clientId: input.loginFlow?.clientId ?? null,
    withPasskey: input.password === undefined,
    expiresAt: new Date(Date.now() + SIGNUP_TTL_MS),
  });
  return { ok: true, flowId };
}

const FLOW_ID = /^[A-Za-z0-9_-]{22,64}$/;

/** The sign-up a page is handed: unknown ones are not found, old ones expired; a finished one is returned. */
export async function loadSignUpFlow(id: string | null, now = new Date()): Promise<TSignUpFlow> {
  const row = id && FLOW_ID.test(id) ? await findSignUpFlow(id) : null;
  if (!row) throw new AppError("signup.flow_not_found");
  if (row.expiresAt <= now) throw new AppError("signup.flow_expired");
  return row;
}

export type TContactKind = "email" | "phone";
export type TWaitingContact = { kind: TContactKind; value: string; instruction: TInstruction; resendInS: number };

/** The contacts that still wait for a code, e-mail first, with what their codes stand at. */
export async function waitingContacts(flow: TSignUpFlow, now = Date.now()): Promise<TWaitingContact[]> {
  const rows = await findConfirmationsOf({ registrationId: flow.registrationContext });
  // No confirmation left while the flow waits: the registration ran out (or ended elsewhere).
  if (rows.length === 0) throw new AppError("signup.flow_expired");
  return rows
    .sort((a, b) => a.kind.localeCompare(b.kind))
    .map((r) => ({
      kind: r.kind as TContactKind,
      value: r.value,
      instruction: instructionFor(r, getConfig().codes.attempts, now),
      resendInS: Math.max(0, Math.ceil((r.resendAt.getTime() - now) / 1000)),
    }));
}

export type TCodeResult =
  | { kind: "done"; userId: string }
  | { kind: "confirmed" | "refused" | "resent" | "not_waiting" | "taken" }
  | { kind: "too_soon"; retryAfterS: number };

/** A code, or a request for a new one, for one contact: the registration service judges it. */
export async function submitCode(flow: TSignUpFlow, contact: TContactKind, action: { code: string } | "resend", locale: TLocale, actor: TEventActor): Promise<TCodeResult> {
  const email = contact === "email";
  // People paste codes with spaces or dashes; nothing longer than the contract allows is a code.
  const body: TConfirmRegistrationRequest =
    action === "resend" ? (email ? { email_code_resend: "" } : { sms_code_resend: "" }) : { [email ? "email_code" : "sms_code"]: action.code.replace(/[\s-]/g, "").slice(0, 32) };
  let response;
  try {
    response = await confirmRegistration(flow.registrationContext, body, locale, actor);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === "registration.not_found") throw new AppError("signup.flow_expired");
    if (e.code === "contact.resend_too_soon") return { kind: "too_soon", retryAfterS: Number(e.details.headers?.["retry-after"] ?? 1) };
    if (e.code === "registration.invalid") return { kind: "not_waiting" };
    // Someone created an account with this e-mail or phone while the codes were on their way.
    if (e.code === "registration.conflict") return { kind: "taken" };
    throw e;
  }
  if (response.subject && response.instructions.length === 0) return { kind: "done", userId: response.subject };
  if (action === "resend") return { kind: "resent" };
  const waiting = response.instructions.some((i) => i.name.startsWith(email ? "eml-" : "mbl-"));
  return { kind: waiting ? "refused" : "confirmed" };
}

/** Ends the flow once its account exists (and has its passkey, when chosen); of two submissions of the last code, only one goes on. */
export async function finishSignUp(flow: TSignUpFlow, userId: string, actor: TEventActor): Promise<void> {
  if (!(await finishSignUpFlow(flow.id, flow.withPasskey ? "registering" : "codes"))) throw new AppError("signup.flow_not_found");
  await recordEvent("user.signed_in", { ...actor, subject: userId }, { method: flow.withPasskey ? "registration_passkey" : "registration" });
}

/**
 * Where a new account's browser goes: on with the application's authorization it started from
 * (consent, or back with a code), or nowhere when there is none or it ended meanwhile.
 */
export async function continueAuthorization(flow: TSignUpFlow, session: TSession): Promise<string | undefined> {
  if (!flow.loginFlowId) return undefined;
  const loginFlow = await loadFlow(flow.loginFlowId).catch(() => undefined);
  if (!loginFlow || loginFlow.step !== "credentials") return undefined;
  // A new account signed up with a password: not the passkey sign-in the application asked for
  // (one that signed up with a passkey is).
  if (demandsPhishingResistant(loginFlow.request.acrValues) && !flow.withPasskey) return undefined;
  const client = await getClientForAuth(loginFlow.clientId);
  if (!client?.enabled) return undefined;
  return continueAfterSignIn(loginFlow, client, session);
}
