import { recordEvents, type TEventActor, type TPendingEvent } from "../audit/audit.service.ts";
import { deliverCode } from "../contacts/code-delivery.ts";
import { codeMatches, generateCode, hashCode } from "../contacts/codes.ts";
import {
  deleteConfirmation,
  findConfirmationsOf,
  updateConfirmation,
} from "../contacts/contact-change.service.ts";
import type { TConfirmationRow } from "../contacts/confirmation-row.ts";
import { getConfig } from "../config/config.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { findAccount } from "../users/users.service.ts";
import { createAccount, setVerifiedContact } from "../users/users.service.ts";
import { instructionsFor } from "./instructions.ts";
import { registrationText } from "./messages.ts";
import { asRegistrationError } from "./registration-errors.ts";
import { deleteRegistration, lockRegistration, updateRegistration, type TRegistrationRow } from "./registration.repository.ts";
import { bindAtRegistration } from "../dyn-clients/dyn-clients.service.ts";
import { bindingEvents, createdResponse, REGISTRATION_TTL_MS } from "./registration.service.ts";
import type { TConfirmRegistrationRequest, TRegistrationResponse } from "./registration.schemas.ts";

type TFinished = TRegistrationResponse & { created?: true; bound?: string[] };

type TStep = { kind: "email" | "phone"; field: string; code?: string; resend: boolean };

function stepOf(b: TConfirmRegistrationRequest): TStep {
  if (b.email_code !== undefined) return { kind: "email", field: "email_code", code: b.email_code, resend: false };
  if (b.sms_code !== undefined) return { kind: "phone", field: "sms_code", code: b.sms_code, resend: false };
  if (b.email_code_resend !== undefined) return { kind: "email", field: "email_code_resend", resend: true };
  return { kind: "phone", field: "sms_code_resend", resend: true };
}

async function resendCode(reg: TRegistrationRow, row: TConfirmationRow, locale: TLocale, tx: TTx): Promise<void> {
  const { ttl, attempts, resendCooldown } = getConfig().codes;
  const now = Date.now();
  const wait = Math.ceil((row.resendAt.getTime() - now) / 1000);
  if (wait > 0) {
    throw new AppError("contact.resend_too_soon", {
      headers: { "retry-after": String(wait) },
      items: [{ error: "resend_too_soon", desc: registrationText("resend_too_soon", locale, String(wait)), pos: row.kind === "email" ? "email_code_resend" : "sms_code_resend" }],
    });
  }
  const code = generateCode();
  // A new code starts afresh: the old one stops working, the attempts are restored.
  await updateConfirmation(
    row.state,
    { codeHash: hashCode(row.state, code), attemptsLeft: attempts, status: "code_waiting", expiresAt: new Date(now + ttl * 1000), resendAt: new Date(now + resendCooldown * 1000) },
    tx,
  );
  await updateRegistration(reg.context, { expiresAt: new Date(now + REGISTRATION_TTL_MS) }, tx);
  await deliverCode(tx, { kind: row.kind as "email" | "phone", to: row.value, code, ttl, locale, userId: reg.userId ?? undefined, purpose: "registration" });
}

/** Checks a code; a right one confirms the contact on the registration, or on the account if it exists. */
async function checkCode(reg: TRegistrationRow, row: TConfirmationRow, code: string, tx: TTx): Promise<boolean> {
  if (row.status === "no_attempts_left" || row.expiresAt.getTime() <= Date.now()) return false;
  if (codeMatches(row.state, code, row.codeHash)) {
    await deleteConfirmation(row.state, tx);
    if (reg.userId) await setVerifiedContact(reg.userId, row.attr, row.value, tx);
    else {
      // The caller finishes with this same registration: keep it in step with what is stored.
      reg.attrs = { ...reg.attrs, [row.attr]: { value: row.value, vrf: true } };
      await updateRegistration(reg.context, { attrs: reg.attrs }, tx);
    }
    return true;
  }
  const attemptsLeft = row.attemptsLeft - 1;
  await updateConfirmation(row.state, { attemptsLeft, ...(attemptsLeft <= 0 ? { status: "no_attempts_left" } : {}) }, tx);
  return false;
}

/** When nothing is left to confirm: the account is created (or already was) and the registration ends. */
async function finish(reg: TRegistrationRow, tx: TTx, locale: TLocale): Promise<TFinished> {
  await deleteRegistration(reg.context, tx);
  const existing = reg.userId ? await findAccount(reg.userId, tx) : null;
  if (existing) return createdResponse(existing);
  const account = await createAccount({ sub: reg.sub, attrs: reg.attrs, passwordHash: reg.passwordHash }, { contactFlag: "vrf", allowed: null }, tx).catch((e) =>
    Promise.reject(asRegistrationError(e, locale)),
  );
  // An instance bound to someone else meanwhile is skipped: the account exists either way.
  const bound = await bindAtRegistration(reg.dynClientIds, account.id, tx);
  return { ...createdResponse(account), created: true, bound };
}

/** The answer while codes are still awaited: what to send next, and the account if it exists already. */
async function waiting(reg: TRegistrationRow, remaining: Awaited<ReturnType<typeof findConfirmationsOf>>, tx: TTx): Promise<TFinished> {
  const instructions = instructionsFor(remaining, getConfig().codes.attempts);
  const account = reg.userId ? await findAccount(reg.userId, tx) : null;
  return account ? createdResponse(account, reg.context, instructions) : { context: reg.context, instructions };
}

/** POST /reg/api/v3/users/{context}: one code or one resend request per call. */
export async function confirmRegistration(context: string, body: TConfirmRegistrationRequest, locale: TLocale, actor: TEventActor): Promise<TRegistrationResponse> {
  const step = stepOf(body);
  let confirmed = false;
  const result = await inTransaction(async (tx): Promise<TFinished> => {
    const reg = await lockRegistration(context, tx);
    if (!reg || reg.expiresAt.getTime() <= Date.now()) {
      throw new AppError("registration.not_found", { items: [{ error: "unknown_context", desc: registrationText("not_found", locale), pos: "context" }] });
    }
    const row = (await findConfirmationsOf({ registrationId: context }, tx)).find((r) => r.kind === step.kind);
    if (!row) throw new AppError("registration.invalid", { items: [{ error: "wrong_value", desc: registrationText("no_such_contact", locale), pos: step.field }] });
    if (step.resend) await resendCode(reg, row, locale, tx);
    else confirmed = await checkCode(reg, row, step.code!, tx);
    const remaining = await findConfirmationsOf({ registrationId: context }, tx);
    const finished = remaining.length === 0 ? await finish(reg, tx, locale) : await waiting(reg, remaining, tx);
    // The step and its events commit together (the account of the last code with its user.registered).
    const who = { ...actor, subject: finished.subject };
    const event = step.resend ? "registration.code_resent" : confirmed ? "registration.contact_confirmed" : "registration.code_rejected";
    const events: TPendingEvent[] = [{ type: event, actor: who, params: { contact: step.kind } }];
    if (finished.created) events.push({ type: "user.registered", actor: who });
    await recordEvents([...events, ...bindingEvents(finished.bound ?? [], finished.subject, actor)], tx);
    return finished;
  });
  if (step.resend) kickDelivery();
  const { created: _created, bound: _bound, ...response } = result;
  if (response.subject) await publishAccountChange(response.subject);
  return response;
}
