import { recordEvent } from "../audit/audit.service.ts";
import { getClientForAuth } from "../clients/clients.service.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { findLiveSession } from "../sessions/sessions.service.ts";
import { describeUserAgent } from "../sessions/user-agent.ts";
import { findUserById } from "../users/users.service.ts";
import { qrCodeHash } from "./qr-code.ts";
import { decideQr, findQrByCodeHash, type TQrWithFlow } from "./qr-sign-ins.repository.ts";
import type { TQrSignInRequest } from "./qr-sign-in.schemas.ts";

// The other device's side of a QR sign-in (GET /api/v3/auth/qr/{QR_code}, …/confirm, …/refuse, user
// mode): the user signed in there sees what asks to sign in, then confirms or refuses it.

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The code's sign-in while it still waits for a decision; otherwise the reason it cannot be decided. */
async function waitingSignIn(code: string, now: Date): Promise<TQrWithFlow> {
  const hash = qrCodeHash(code);
  const row = hash ? await findQrByCodeHash(hash) : null;
  if (!row) throw new AppError("qr.not_found");
  if (row.status !== "waiting") throw new AppError("qr.already_used");
  // A flow that finished otherwise (a password typed meanwhile) has nothing left to sign in.
  if (row.flow.step !== "credentials") throw new AppError("qr.not_found");
  if (row.expiresAt <= now || row.flow.expiresAt <= now) throw new AppError("qr.expired");
  return row;
}

type TUserActor = Extract<TRequestContext["actor"], { mode: "user" }>;

function userActorOf(ctx: TRequestContext): TUserActor {
  if (ctx.actor.mode !== "user") throw new Error("QR decisions are user-mode operations");
  return ctx.actor;
}

/**
 * QR sign-ins are a first-party application's business: another application's token, whatever its
 * scopes, neither confirms one nor learns the waiting browser's address and device.
 */
async function requireFirstParty(actor: TUserActor): Promise<void> {
  const client = await getClientForAuth(actor.clientId);
  if (!client?.firstParty) throw new AppError("qr.client_not_allowed");
}

/**
 * Who vouches for the waiting browser: a (first-party) token of a browser session that still lives. The new session inherits that session's auth_time and methods, so a QR sign-in is
 * never fresher or stronger than the sign-in that confirmed it.
 */
async function confirmingSession(actor: TUserActor, now: Date): Promise<{ authTime: Date; amr: string[] }> {
  const session = actor.sessionId ? await findLiveSession(actor.sessionId, now) : null;
  if (!session || session.userId !== actor.userId) throw new AppError("qr.session_required");
  return { authTime: session.authTime, amr: session.amr };
}

/** GET: the application, browser, address and times of the sign-in the code stands for. */
export async function describeQrSignIn(ctx: TRequestContext, code: string, now = new Date()): Promise<TQrSignInRequest> {
  await requireFirstParty(userActorOf(ctx));
  const row = await waitingSignIn(code, now);
  const client = await getClientForAuth(row.flow.clientId);
  if (!client?.enabled) throw new AppError("qr.not_found");
  return {
    client: { id: client.id, name: client.name },
    device: describeUserAgent(row.userAgent ?? undefined),
    ip: row.ip,
    created: unix(row.createdAt),
    expiresOn: unix(row.expiresAt),
  };
}

/**
 * POST …/confirm or …/refuse. The token's user is who the waiting browser gets signed in as. Of
 * parallel decisions on one code exactly one wins; every attempt, won or refused, is an audit event
 * with the caller's user-mode headers (and the device IDP-CI-UA-ID names, when sent).
 */
export async function decideQrSignIn(ctx: TRequestContext, code: string, decision: "confirm" | "refuse", device?: string, now = new Date()): Promise<void> {
  const user = userActorOf(ctx);
  const userId = user.userId;
  const actor = eventActorOf(ctx);
  let row: TQrWithFlow | undefined;
  try {
    await requireFirstParty(user);
    row = await waitingSignIn(code, now);
    let confirming: { authTime: Date; amr: string[] } | undefined;
    if (decision === "confirm") {
      const account = await findUserById(userId);
      if (!account || account.locked) throw new AppError("qr.account_locked");
      confirming = await confirmingSession(user, now);
    }
    if (!(await decideQr(row.id, decision === "confirm" ? "confirmed" : "refused", userId, now, confirming))) throw new AppError("qr.already_used");
  } catch (e) {
    if (e instanceof AppError) {
      await recordEvent("user.qr_decision_failed", actor, { decision, reason: e.def.error, qrSignIn: row?.id ?? null, device: device ?? null });
    }
    throw e;
  }
  const type = decision === "confirm" ? "user.qr_confirmed" : "user.qr_refused";
  await recordEvent(type, actor, { qrSignIn: row.id, signInTo: row.flow.clientId, device: device ?? null });
}
