import type { TOutboxRow } from "./outbox.repository.ts";
import type { TOutboxView } from "./messaging.schemas.ts";

/** The only way a message leaves the service for the console list: without its sealed body. */
export function toOutboxView(row: TOutboxRow): TOutboxView {
  return {
    id: row.id,
    channel: row.channel as TOutboxView["channel"],
    recipient: row.recipient,
    subject: row.subject,
    template: row.template,
    purpose: row.purpose,
    locale: row.locale,
    userId: row.userId,
    status: row.status as TOutboxView["status"],
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

/** The keyset cursor after this row (newest-first order). */
export function cursorAfter(row: TOutboxRow): string {
  return `${row.createdAt.toISOString()}~${row.id}`;
}

export function parseCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso = "", id = ""] = cursor.split("~");
  return { createdAt: new Date(iso), id };
}
