import { randomUUID } from "node:crypto";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { sealFor, unsealFor } from "../crypto/keys.ts";
import type { TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { kickDelivery } from "./delivery-worker.ts";
import { ZListOutboxRequest, type TListOutboxRequest } from "./messaging.schemas.ts";
import { cursorAfter, parseCursor, toOutboxView } from "./outbox.mapper.ts";
import { findTemplateRow } from "./message-templates.repository.ts";
import { findOutboxMessage, findOutboxPage, insertOutboxMessage, requeueMessage } from "./outbox.repository.ts";
import { maskRecipient } from "./recipient-mask.ts";
import { pickLocale, renderTemplate, type TChannel, type TTemplateName, type TTemplateParams } from "./templates.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { countFailedMessages, countPendingMessages, deleteMessagesBefore } from "./outbox.repository.ts";

export type TEnqueueMessage<T extends TTemplateName = TTemplateName> = {
  channel: TChannel;
  /** E-mail address or phone number, as the transport should receive it. */
  to: string;
  template: T;
  /** "ru" or "en" (a tag such as "en-US" is reduced to its language); default Russian. */
  locale?: string;
  params: TTemplateParams<T>;
  /** The account concerned, if any (kept as text: the record outlives the account). */
  userId?: string;
  /** Why the message is sent, e.g. "contact.confirm_email" or "registration". */
  purpose: string;
};

/**
 * Writes a message in the caller's transaction, so it exists exactly when the change that caused it
 * commits; the body is sealed at rest (it carries codes). After the commit, call kickDelivery().
 * The message is due at `dueAt` (now by default; the console's test send claims it on insert).
 */
export async function enqueueMessage<T extends TTemplateName>(tx: TTx, input: TEnqueueMessage<T>, dueAt = new Date()): Promise<{ id: string }> {
  const to = input.to.trim();
  if (!to || to.length > 320) throw new Error("enqueueMessage: a recipient of 1-320 characters is required");
  const locale = pickLocale(input.locale);
  const rewritten = await findTemplateRow(tx, { template: input.template, channel: input.channel, locale });
  const { subject, text } = renderTemplate(input.template, input.channel, locale, input.params, rewritten ? { subject: rewritten.subject, text: rewritten.body } : undefined);
  const id = randomUUID();
  await insertOutboxMessage(tx, {
    id,
    channel: input.channel,
    recipient: to,
    subject,
    bodySealed: sealFor("outbox", text),
    locale,
    template: input.template,
    purpose: input.purpose,
    userId: input.userId ?? null,
    nextAttemptAt: dueAt,
  });
  return { id };
}

/** The console's list: newest first, optionally one status, keyset pages. */
export async function listOutbox(req: TListOutboxRequest) {
  const { status, after, limit } = ZListOutboxRequest.parse(req);
  // One extra row tells whether another page follows without a count query.
  const rows = await findOutboxPage({ status, before: after ? parseCursor(after) : undefined, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { items: page.map(toOutboxView), nextCursor: rows.length > limit ? cursorAfter(page.at(-1)!) : null };
}

async function getMessage(id: string) {
  const row = await findOutboxMessage(id);
  if (!row) throw new AppError("outbox.not_found", { params: { id } });
  return row;
}

/**
 * The text of a message for the administrator (so a code can be read off the console when no
 * transport is configured). Reading it is recorded: a code read by someone else is a code spent.
 */
export async function readMessageText(id: string, actor: TEventActor): Promise<{ text: string }> {
  const row = await getMessage(id);
  await recordEvent("outbox.message_read", actor, { message: id, purpose: row.purpose, to: maskRecipient(row.recipient) });
  return { text: unsealFor("outbox", row.bodySealed) };
}

/** Puts a pending or failed message back in the queue with fresh attempts and delivers it at once. */
export async function resendMessage(id: string, actor: TEventActor) {
  const row = await getMessage(id);
  if (row.status === "sent" || !(await requeueMessage(id, new Date()))) {
    throw new AppError("outbox.already_sent", { params: { id } });
  }
  await recordEvent("outbox.message_requeued", actor, { message: id, purpose: row.purpose, to: maskRecipient(row.recipient) });
  kickDelivery();
  return toOutboxView((await findOutboxMessage(id))!);
}
