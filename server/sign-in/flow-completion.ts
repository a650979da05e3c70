import type { TPendingEvent } from "../audit/audit.service.ts";
import { getClientForAuth, type TClientAuthRow } from "../clients/clients.service.ts";
import { AppError } from "../errors/app-error.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { continueAfterSignIn } from "../oauth/authorize/authorize.service.ts";
import { demandsPhishingResistant, isPhishingResistant } from "../oauth/authorize/acr.ts";
import { noteSignedIn, passwordChangeDue, stepsAfterSignIn } from "./account-checks.ts";
import { startBrowserSession } from "./browser-session.ts";
import { linkOnSignIn } from "./external-login.service.ts";
import { readCookie } from "../http/cookies.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { csrfFieldOf, loadFlow, moveFlow, type TFlow } from "./login-flows.service.ts";
import { pageLink } from "../html/layout.ts";
import { seeOther } from "../html/page-route.ts";
import { queryParam, type TAnswer, type TIncoming } from "../http/exchange.ts";

// What every page of a login flow shares: the flow's client, the flow named in the query, where a
// flow goes once a method (password, QR code, external provider) proved who the person is, and the
// end of a sign-in, whichever method and steps led there.

export async function clientOf(flow: TFlow) {
  const client = await getClientForAuth(flow.clientId);
  if (!client?.enabled) throw new AppError("login.flow_not_found");
  return client;
}

export function flowParam(req: TIncoming): string | null {
  return queryParam(req, "flow");
}

/**
 * The account is known (by password, or by QR code) and every step is passed: binds the external
 * account the link page marked for it, starts the browser session on this device and moves the flow
 * on (consent, or back to the client with a code).
 */
export async function completeSignIn(
  req: TIncoming,
  ctx: TRequestContext,
  flow: TFlow,
  client: TClientAuthRow,
  user: { userId: string; amr: string[]; authTime?: Date; events?: TPendingEvent[] },
): Promise<TAnswer> {
  ctx.clientId = client.id;
  // Whatever led here (a QR code, an external provider, a recovery), a request for a passkey is met by one or not at all.
  if (demandsPhishingResistant(flow.request.acrValues) && !isPhishingResistant(user.amr)) throw new AppError("login.passkey_required");
  await linkOnSignIn(flow, user.userId, { clientId: client.id, ...browserActor(req) });
  const { session, cookies } = await startBrowserSession(req, { userId: user.userId, amr: user.amr, authTime: user.authTime, events: user.events, ...browserActor(req) });
  await noteSignedIn(user.userId);
  return seeOther(await continueAfterSignIn(flow, client, session), cookies);
}

/** authTime: when the person proved who they are, when that was not now (a QR sign-in's confirming session). */
type TSignedInBy = { userId: string; amr: string[]; authTime?: Date; events?: TPendingEvent[]; recovery?: boolean };

/**
 * The pages of the steps after the first method (login-steps.routes.ts, and the recovery's new
 * password). A recovery passes the second factor at a step of its own, on the same page, so that
 * where it goes next is the flow's state, not a guess from its methods.
 */
export const STEP_PAGE = {
  second_factor: "/login/otp",
  recovery_second_factor: "/login/otp",
  password_change: "/login/password",
  recovery_password: "/login/recover/password",
} as const;
export type TStep = keyof typeof STEP_PAGE;

/** The flow a step's page acts on, when it is at one of those steps and belongs to this browser. */
export async function flowAt(req: TIncoming, ...steps: TStep[]): Promise<{ flow: TFlow & { userId: string }; csrf: string }> {
  const flow = await loadFlow(flowParam(req));
  const csrf = csrfFieldOf(flow, readCookie(req, CSRF_COOKIE));
  if (!(steps as string[]).includes(flow.step) || !flow.userId) throw new AppError("login.flow_not_found");
  if (!csrf) throw new AppError("login.csrf_failed");
  return { flow: flow as TFlow & { userId: string }, csrf };
}

/**
 * The step a flow goes to once `amr` passed, or none when the sign-in is complete: the second factor
 * first, then the new password of a recovery or the one an administrator asked for.
 */
export function nextStep(amr: string[], needs: { secondFactor: boolean; passwordChange: boolean }, recovery: boolean): TStep | undefined {
  // A QR sign-in carries the confirming session's methods: "otp" there if it passed the second factor.
  // A passkey with user verification is two factors by itself ("mfa").
  if (needs.secondFactor && !amr.includes("otp") && !amr.includes("mfa")) return recovery ? "recovery_second_factor" : "second_factor";
  if (recovery) return "recovery_password";
  return needs.passwordChange ? "password_change" : undefined;
}

export type TAfterMethodRefusal = "login.password_locked" | "login.inactivity_locked";

/**
 * Where a flow goes once `user` passed a method: refused (said only now, as it reveals nothing a
 * guesser does not know once the password was right), the next step it still needs, or signed in.
 * `accepted` runs once the method is not refused, before anything moves on (what the method's
 * success brings with it: an external account marked to link on completion, the tokens of the one
 * it signed in with).
 */
export async function continueSignIn(
  req: TIncoming,
  ctx: TRequestContext,
  flow: TFlow,
  client: TClientAuthRow,
  user: TSignedInBy,
  refuse: (code: TAfterMethodRefusal) => Promise<TAnswer>,
  accepted?: () => Promise<void>,
): Promise<TAnswer> {
  const steps = await stepsAfterSignIn(user.userId, user.amr, { clientId: client.id, ...browserActor(req) }, user.recovery);
  if (steps.refusal) return refuse(steps.refusal);
  await accepted?.();
  const next = nextStep(user.amr, steps, !!user.recovery);
  if (!next) return completeSignIn(req, ctx, flow, client, user);
  await moveFlow(flow, next, { userId: user.userId, amr: user.amr });
  return seeOther(pageLink(STEP_PAGE[next], { flow: flow.id, lang: queryParam(req, "lang") ?? undefined }));
}

/**
 * The methods after a second factor passed: its own (RFC 8176: "otp", or "swk" and "user" for a
 * passkey that verified the person), and "mfa", as two factors were used.
 */
export function withSecondFactor(amr: string[], methods: string[]): string[] {
  return [...new Set([...amr, ...methods, "mfa"])];
}

/** The methods a finished multi-step sign-in records, in the session's transaction ("mfa" says nothing the methods do not). */
const signedInEvent = (req: TIncoming, flow: TFlow & { userId: string }, client: TClientAuthRow, amr: string[]): TPendingEvent => ({
  type: "user.signed_in",
  actor: { subject: flow.userId, clientId: client.id, ...browserActor(req) },
  params: { method: amr.filter((m) => m !== "mfa").join("+") },
});

/** After a further step: the password change may still be due, else signed in. */
export async function continueAfterStep(req: TIncoming, ctx: TRequestContext, flow: TFlow & { userId: string }, client: TClientAuthRow, amr: string[]): Promise<TAnswer> {
  const recovery = flow.step === "recovery_second_factor";
  const next = flow.step === "password_change" ? undefined : nextStep(amr, { secondFactor: false, passwordChange: !recovery && (await passwordChangeDue(flow.userId)) }, recovery);
  if (next) {
    await moveFlow(flow, next, { amr });
    return seeOther(pageLink(STEP_PAGE[next], { flow: flow.id, lang: queryParam(req, "lang") ?? undefined }));
  }
  return completeSignIn(req, ctx, flow, client, { userId: flow.userId, amr, events: [signedInEvent(req, flow, client, amr)] });
}

