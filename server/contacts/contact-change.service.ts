import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { maskRecipient } from "../messaging/recipient-mask.ts";
import type { TChannel } from "../messaging/templates.ts";
import { tellAccountHolder } from "../notices/account-notices.ts";
import type { TLocale } from "../http/locale.ts";
import type { TAccount } from "../users/account.ts";
import { attributesOf } from "../users/account.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import type { TPendingContact } from "../users/account-changes.ts";
import { changeAttributes, setVerifiedContact, type TChangeResult } from "../users/users.service.ts";
import { deliverCode } from "./code-delivery.ts";
import { codeMatches, generateCode, hashCode } from "./codes.ts";
import {
  deleteConfirmation,
  deleteConfirmationsOf,
  findConfirmationsOf,
  lockConfirmation,
  updateConfirmation,
} from "./confirmations.repository.ts";
import type { TConfirmationRow } from "./confirmation-row.ts";
import { openConfirmation } from "./open-confirmation.ts";
import { WAITING_CHANGE } from "./contact-change-state.ts";
import { CONTACT_ACTIONS, type TConfirmationFailure, type TConfirmRequest, type TContactKind, type TPendingConfirmation } from "./contacts.schemas.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { deleteConfirmation, deleteExpiredConfirmations, findConfirmationsOf, updateConfirmation } from "./confirmations.repository.ts";

// Its own file, because account reads (users/account-snapshots.ts) need it, and this service needs them.
const PURPOSE = WAITING_CHANGE.purpose;

export function toPendingConfirmation(row: TConfirmationRow, kind: TContactKind, now = Date.now()): TPendingConfirmation {
  return {
    state: row.state,
    exp: Math.max(0, Math.ceil((row.expiresAt.getTime() - now) / 1000)),
    status: "code_waiting",
    from: row.oldValue ?? "",
    attr: row.attr,
    value: row.value,
    action: CONTACT_ACTIONS[kind],
    attempts_left: row.attemptsLeft,
    created: Math.floor(row.createdAt.getTime() / 1000),
  };
}

const kindOfAttr = (row: TConfirmationRow): TContactKind => row.kind as TContactKind;

/**
 * Starts the confirmation of each contact that waits for a code: earlier codes for that attribute
 * stop working, a new code goes to the new address through the outbox of this same transaction.
 */
export async function startContactChanges(tx: TTx, account: TAccount, pending: TPendingContact[], locale: TLocale): Promise<void> {
  const current = attributesOf(account);
  for (const p of pending) {
    await deleteConfirmationsOf({ userId: account.id }, p.attr, tx);
    const old = current[p.attr];
    const oldValue = typeof old === "object" && !Array.isArray(old) ? old.value : null;
    await openConfirmation(tx, { purpose: PURPOSE, userId: account.id, registrationId: null, attr: p.attr, kind: p.type, value: p.value, oldValue }, locale);
  }
}

/**
 * Changes attributes as a person (v3 user mode, the portal) or an application asks: a contact given
 * unconfirmed ({value, vrf:false}) is not stored but waits for the code sent to it in the same
 * transaction. Of two changes from the same version (`instanceId`) one succeeds, the other is stale.
 */
export async function changeConfirmingContacts(
  instanceId: string,
  input: Record<string, unknown>,
  opts: { allowed: Set<string> | null; expectSubject?: string; actor: TEventActor; locale: TLocale },
): Promise<TChangeResult> {
  const result = await changeAttributes(instanceId, input, {
    contactFlag: "vrf",
    confirmUnverified: true,
    allowed: opts.allowed,
    expectSubject: opts.expectSubject,
    actor: opts.actor,
    onPending: (tx, account, pending) => startContactChanges(tx, account, pending, opts.locale),
  });
  kickDelivery();
  return result;
}

/** The contact changes of an account that wait for a code, as stored (expiry is judged when shown). */
export async function waitingChanges(userId: string): Promise<TConfirmationRow[]> {
  return (await findConfirmationsOf({ userId })).filter((r) => r.purpose === WAITING_CHANGE.purpose && r.status === WAITING_CHANGE.status);
}

/** notes.actions: the waiting changes whose code is still valid now. */
export function notesOf(rows: TConfirmationRow[], now = Date.now()): TPendingConfirmation[] {
  return rows.filter((r) => r.expiresAt.getTime() > now).map((r) => toPendingConfirmation(r, kindOfAttr(r), now));
}

export async function pendingNotes(userId: string): Promise<TPendingConfirmation[]> {
  return notesOf(await waitingChanges(userId));
}

export type TConfirmOutcome =
  /** contact: the address or number now confirmed; replaced: the one it took the place of, if any. */
  | { kind: "confirmed"; account: TAccount; contact: string; replaced?: { channel: TChannel; to: string } }
  | { kind: "wrong_code"; pending: TPendingConfirmation }
  | { kind: "resent"; pending: TPendingConfirmation }
  | { kind: "failed"; failure: TConfirmationFailure };

type TConfirmCall = { kind: TContactKind; state: string; request: TConfirmRequest; userId?: string; actor: TEventActor; locale: TLocale };

async function resend(row: TConfirmationRow, call: TConfirmCall, tx: TTx): Promise<TConfirmOutcome> {
  const { ttl, resendCooldown } = getConfig().codes;
  const now = Date.now();
  const wait = Math.ceil((row.resendAt.getTime() - now) / 1000);
  if (wait > 0) throw new AppError("contact.resend_too_soon", { headers: { "retry-after": String(wait) }, params: { retryAfter: wait } });
  const code = generateCode();
  const expiresAt = new Date(now + ttl * 1000);
  await updateConfirmation(row.state, { codeHash: hashCode(row.state, code), expiresAt, resendAt: new Date(now + resendCooldown * 1000) }, tx);
  await deliverCode(tx, { kind: call.kind, to: row.value, code, ttl, locale: call.locale, userId: row.userId ?? undefined, purpose: PURPOSE });
  return { kind: "resent", pending: toPendingConfirmation({ ...row, expiresAt }, call.kind, now) };
}

async function judge(row: TConfirmationRow, call: TConfirmCall, tx: TTx): Promise<TConfirmOutcome> {
  const failure = (cause: TConfirmationFailure["cause"]): TConfirmOutcome => ({ kind: "failed", failure: { id: row.state, cause, attr: row.attr } });
  if (row.status === "no_attempts_left") return failure("no_attempts_left");
  if (row.expiresAt.getTime() <= Date.now()) return failure("code_expired");
  if (call.request.cmd === "resend") return resend(row, call, tx);
  if (codeMatches(row.state, call.request.value, row.codeHash)) {
    const account = await setVerifiedContact(row.userId!, row.attr, row.value, tx);
    await deleteConfirmation(row.state, tx);
    const replaced = row.oldValue && row.oldValue !== row.value ? { channel: kindOfAttr(row) === "email" ? ("email" as const) : ("sms" as const), to: row.oldValue } : undefined;
    return { kind: "confirmed", account, contact: row.value, replaced };
  }
  const attemptsLeft = row.attemptsLeft - 1;
  await updateConfirmation(row.state, { attemptsLeft, ...(attemptsLeft <= 0 ? { status: "no_attempts_left" } : {}) }, tx);
  if (attemptsLeft <= 0) return failure("no_attempts_left");
  return { kind: "wrong_code", pending: { ...toPendingConfirmation({ ...row, attemptsLeft }, call.kind), msg: "wrong_code" } };
}

/** Submits a code (or asks for a new one) for a pending change of a phone or e-mail. */
export async function confirmContactChange(call: TConfirmCall): Promise<TConfirmOutcome> {
  const { outcome, userId } = await inTransaction(async (tx) => {
    const row = await lockConfirmation(call.state, tx);
    const mine = row && row.purpose === PURPOSE && kindOfAttr(row) === call.kind && (call.userId === undefined || row.userId === call.userId);
    if (!row || !mine) throw new AppError("contact.not_found", { params: { state: call.state } });
    return { outcome: await judge(row, call, tx), userId: row.userId! };
  });
  // Attempts, the code's expiry and the contact itself all show in the account's reads.
  await publishAccountChange(userId);
  if (outcome.kind === "resent") kickDelivery();
  const subject = outcome.kind === "confirmed" ? outcome.account.id : call.userId;
  const event = { confirmed: "user.contact_confirmed", wrong_code: "user.contact_code_wrong", resent: "user.contact_code_resent", failed: "user.contact_confirmation_failed" }[outcome.kind];
  await recordEvent(event, { ...call.actor, subject }, outcome.kind === "failed" ? { cause: outcome.failure.cause } : {});
  // The new address learns it now serves the account; the old one that it no longer does.
  if (outcome.kind === "confirmed") {
    const alsoTo = outcome.replaced ? [outcome.replaced] : [];
    await tellAccountHolder(outcome.account, { kind: "contact_changed", actor: call.actor, detail: maskRecipient(outcome.contact), alsoTo, locale: call.locale });
  }
  return outcome;
}
