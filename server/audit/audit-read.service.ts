import type { TRequestContext } from "../http/request-context.ts";
import { readAccount } from "../users/users.service.ts";
import { findEvents, type TEventFilter, type TEventKey, type TEventRecord } from "./audit.repository.ts";
import type { TAuditEvent, TAuditPage, TAuditQuery } from "./audit.schemas.ts";

const cursorOf = (e: TEventRecord) => `${e.createdAt.getTime()}.${e.id}`;

function parseCursor(cursor: string): TEventKey {
  const [ms, id] = cursor.split(".");
  return { createdAt: new Date(Number(ms)), id: BigInt(id!) };
}

export function toAuditEvent(e: TEventRecord): TAuditEvent {
  return {
    id: String(e.id),
    type: e.type,
    time: Math.floor(e.createdAt.getTime() / 1000),
    clientId: e.clientId ?? null,
    ip: e.ip ?? null,
    userAgent: e.userAgent ?? null,
    params: e.params,
  };
}

/**
 * One page of the trail, newest first, after `cursor` (a nextCursor of the page before, checked by
 * ZEventCursor). One row more than asked tells whether another page follows, without a count.
 */
export async function readEventPage(filter: TEventFilter, page: { cursor?: string; limit: number }): Promise<{ rows: TEventRecord[]; nextCursor: string | null }> {
  const rows = await findEvents({ ...filter, before: page.cursor ? parseCursor(page.cursor) : undefined, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  return { rows: shown, nextCursor: rows.length > page.limit ? cursorOf(shown.at(-1)!) : null };
}

/** GET /api/v3/users/{subjectId}/audit: the account's security events, newest first, a page at a time. */
export async function readAudit(ctx: TRequestContext, subjectId: string, q: TAuditQuery): Promise<TAuditPage> {
  await readAccount(subjectId);
  const filter: TEventFilter = {
    subject: subjectId,
    from: q.from === undefined ? undefined : new Date(q.from * 1000),
    to: q.to === undefined ? undefined : new Date(q.to * 1000),
    types: q.type?.split(","),
  };
  const { rows, nextCursor } = await readEventPage(filter, { cursor: q.cursor, limit: q.limit });
  return { events: rows.map(toAuditEvent), nextCursor };
}
