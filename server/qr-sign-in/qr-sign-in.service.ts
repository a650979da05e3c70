import { randomUUID } from "node:crypto";
import { recordEvent } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { findUserById } from "../users/users.service.ts";
import { qrCodeFor, qrCodeHash } from "./qr-code.ts";
import { findQrOfFlow, replaceQrSignIn, takeConfirmedQr } from "./qr-sign-ins.repository.ts";

// The browser's side of a QR sign-in: the waiting page asks for a code, shows it, and signs in once
// a user confirmed it on another device (qr-decisions.service.ts).

/** What the waiting page shows. "none": no code was asked for in this flow (or it was used). */
export type TQrState =
  | { state: "none" }
  | { state: "waiting"; code: string; expiresAt: Date }
  | { state: "confirmed"; id: string; userId: string; authTime: Date; amr: string[] }
  | { state: "refused" }
  | { state: "expired" };

type TBrowserInfo = { ip?: string; userAgent?: string };

const ttlMs = () => getConfig().qrCodeTtl * 1000;

/**
 * A new code for the flow, replacing any earlier one. `browserCookie` is the CSRF cookie the flow was
 * started with: the code is derived from it, so only this browser can show it again.
 */
export async function startQrSignIn(flowId: string, browserCookie: string, browser: TBrowserInfo, now = new Date()): Promise<void> {
  const id = randomUUID();
  await replaceQrSignIn({
    id,
    flowId,
    codeHash: qrCodeHash(qrCodeFor(browserCookie, id))!,
    ip: browser.ip ?? null,
    userAgent: browser.userAgent ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs()),
  });
}

/**
 * Where the flow's QR sign-in stands. A confirmation is honoured for one code lifetime after it was
 * given, so a browser left waiting long after cannot be signed in by a decision nobody remembers.
 */
export async function qrStateOf(flowId: string, browserCookie: string, now = new Date()): Promise<TQrState> {
  const row = await findQrOfFlow(flowId);
  if (!row || row.status === "used") return { state: "none" };
  if (row.status === "refused") return { state: "refused" };
  if (row.status === "confirmed") {
    const fresh = row.userId && row.decidedAt && row.authTime && now.getTime() - row.decidedAt.getTime() < ttlMs();
    return fresh ? { state: "confirmed", id: row.id, userId: row.userId!, authTime: row.authTime!, amr: row.amr } : { state: "expired" };
  }
  if (row.expiresAt <= now) return { state: "expired" };
  return { state: "waiting", code: qrCodeFor(browserCookie, row.id), expiresAt: row.expiresAt };
}

export type TTakeResult = { ok: true; userId: string; authTime: Date; amr: string[] } | { ok: false; reason: "taken" | "account_locked" };

/**
 * The waiting browser signs in with a confirmed code: once (a second tab or reload finds it taken),
 * and not for an account locked since the confirmation. The sign-in is an audit event like a
 * password sign-in, with the waiting browser's address and User-Agent.
 */
export async function takeConfirmedSignIn(
  confirmed: Extract<TQrState, { state: "confirmed" }>,
  actor: TBrowserInfo & { clientId: string },
): Promise<TTakeResult> {
  const account = await findUserById(confirmed.userId);
  const who = { ...actor, subject: confirmed.userId };
  if (!account || account.locked) {
    await recordEvent("user.sign_in_failed", who, { reason: "account_locked", method: "qr", qrSignIn: confirmed.id });
    return { ok: false, reason: "account_locked" };
  }
  if (!(await takeConfirmedQr(confirmed.id))) return { ok: false, reason: "taken" };
  await recordEvent("user.signed_in", who, { method: "qr", qrSignIn: confirmed.id });
  return { ok: true, userId: confirmed.userId, authTime: confirmed.authTime, amr: confirmed.amr };
}
