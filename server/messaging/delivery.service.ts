import { unsealFor } from "../crypto/keys.ts";
import { log } from "../log/logger.ts";
import { claimDueMessages, parkMessage, recordOutcome, type TClaimedRow, type TDeliveryOutcome } from "./outbox.repository.ts";
import { maskIn, maskRecipient } from "./recipient-mask.ts";
import type { TChannel } from "./templates.ts";
import type { TTransports } from "./transports.ts";

/** Waits after the 1st, 2nd, 3rd and 4th failed attempt; the 5th failure is final. */
export const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000];
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;

/** How long a claimed message is a worker's own: longer than the slowest transport (SMTP: 10 + 10 + 30 s). */
export const LEASE_MS = 2 * 60_000;

export const NO_TRANSPORT = "no transport configured";

const BATCH = 10;
const MAX_ERROR_LENGTH = 1000;

export type TClock = () => Date;
export type TDeliveryDeps = { transports: TTransports; clock: TClock };
export type TDeliveryResult = { status: "sent" | "pending" | "failed"; error: string | null };

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text || "unknown error").slice(0, MAX_ERROR_LENGTH);
}

function failedOutcome(row: TClaimedRow, error: string, now: Date, final: boolean): TDeliveryOutcome {
  const attempts = row.attempts + 1;
  const last = final || attempts >= MAX_ATTEMPTS;
  return {
    status: last ? "failed" : "pending",
    attempts,
    lastError: error,
    nextAttemptAt: last ? null : new Date(now.getTime() + BACKOFF_MS[attempts - 1]!),
    sentAt: null,
  };
}

/**
 * Sends one claimed message and records what happened. `final` (the console's test message) makes
 * a failure terminal at once: the administrator saw the error and can resend.
 */
export async function deliverClaimed(row: TClaimedRow, deps: TDeliveryDeps, final = false): Promise<TDeliveryResult> {
  const fields = { messageId: row.id, channel: row.channel, to: maskRecipient(row.recipient) };
  const transport = deps.transports[row.channel as TChannel];
  if (!transport) {
    await parkMessage(row.id, NO_TRANSPORT);
    log.warn("message kept pending", { ...fields, status: "pending", reason: NO_TRANSPORT });
    return { status: "pending", error: NO_TRANSPORT };
  }
  try {
    // Inside the try: a body sealed under another IDP_SECRET_KEY is a failed attempt, not a stuck worker.
    const text = unsealFor("outbox", row.bodySealed);
    await transport.send({ id: row.id, to: row.recipient, subject: row.subject, text });
  } catch (e) {
    const error = errorText(e);
    const outcome = failedOutcome(row, error, deps.clock(), final);
    await recordOutcome(row.id, outcome);
    log.warn("message delivery failed", { ...fields, status: outcome.status, attempts: outcome.attempts, error: maskIn(error, row.recipient) });
    return { status: outcome.status, error };
  }
  await recordOutcome(row.id, { status: "sent", attempts: row.attempts + 1, lastError: null, nextAttemptAt: null, sentAt: deps.clock() });
  log.info("message sent", { ...fields, status: "sent", attempts: row.attempts + 1 });
  return { status: "sent", error: null };
}

/**
 * Delivers every message due by the clock, a batch at a time, until none is left due. Safe to run
 * in several processes at once: each message is claimed by exactly one of them.
 */
export async function drainOutbox(deps: TDeliveryDeps): Promise<{ sent: number; failed: number; pending: number }> {
  const counts = { sent: 0, failed: 0, pending: 0 };
  for (;;) {
    const now = deps.clock();
    const rows = await claimDueMessages(now, new Date(now.getTime() + LEASE_MS), BATCH);
    if (rows.length === 0) return counts;
    for (const row of rows) counts[(await deliverClaimed(row, deps)).status] += 1;
  }
}
