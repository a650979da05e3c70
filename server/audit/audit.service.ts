import { redact } from "../log/redact.ts";
import type { TTx } from "../db/index.ts";
import { countSignInEvent } from "../metrics/registry.ts";
import { insertEvent, insertEvents, type TEventRow } from "./audit.repository.ts";

/** Who did it and from where: filled by the request layer (IP and User-Agent in user mode). */
export type TEventActor = { subject?: string; clientId?: string; ip?: string; userAgent?: string };

/**
 * The one way to record a security event. Parameters go through the same redaction as logs, so a
 * caller cannot store a password or code in the audit trail by accident.
 */
export async function recordEvent(type: string, actor: TEventActor, params: Record<string, unknown> = {}): Promise<void> {
  await insertEvent(eventRow({ type, actor, params }));
  countSignInEvent(type, params);
}

/** An event that is written with the change it describes (see recordEvents). */
export type TPendingEvent = { type: string; actor: TEventActor; params?: Record<string, unknown> };

/** Records events in the transaction of the change they describe: both happen, or neither. */
export async function recordEvents(events: TPendingEvent[], tx: TTx): Promise<void> {
  await insertEvents(events.map(eventRow), tx);
  // Counted when written: a transaction that later rolls back leaves its sign-in counted (rare: the
  // event is the last write of a sign-in).
  for (const e of events) countSignInEvent(e.type, e.params ?? {});
}

function eventRow({ type, actor, params = {} }: TPendingEvent): TEventRow {
  return { type, subject: actor.subject, clientId: actor.clientId, ip: actor.ip, userAgent: actor.userAgent, params: withoutNul(redact(params)) as Record<string, unknown> };
}

/**
 * PostgreSQL's JSON cannot hold U+0000: a parameter taken from input (a reason, a name) that carries
 * one would fail the event, after the change it describes. It is dropped instead.
 */
function withoutNul(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replaceAll("\u0000", "") : value;
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => withoutNul(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll("\u0000", ""), withoutNul(v, depth + 1)]));
}

/**
 * What an event about a user's account adds when an administrator acted in the console: the event
 * stays the user's (subject), the actor's address and browser are the administrator's, and the
 * params name the administrator.
 */
export function adminNote(admin: TEventActor): Record<string, unknown> {
  return { by: "console", admin: admin.subject ?? null };
}
