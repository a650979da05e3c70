import type { TRequestContext } from "../http/request-context.ts";
import { CURRENT_SUBJECT } from "../http/authenticate.ts";
import { readAccount } from "../users/users.service.ts";
import { findEventsOf, type TEventRecord } from "./audit.repository.ts";
import type { TAuditEvent, TAuditPage, TAuditQuery } from "./audit.schemas.ts";

const cursorOf = (e: TEventRecord) => `${e.createdAt.getTime()}.${e.id}`;

function parseCursor(cursor: string): { createdAt: Date; id: bigint } {
  const [ms, id] = cursor.split(".");
  return { createdAt: new Date(Number(ms)), id: BigInt(id!) };
}

function toAuditEvent(e: TEventRecord): TAuditEvent {
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

/** GET /api/v3/users/{subjectId}/audit: the account's security events, newest first, a page at a time. */
export async function readAudit(ctx: TRequestContext, subjectId: string, q: TAuditQuery): Promise<TAuditPage> {
  const sub = subjectId === CURRENT_SUBJECT && ctx.actor.mode === "user" ? ctx.actor.userId : subjectId;
  await readAccount(sub);
  const rows = await findEventsOf({
    subject: sub,
    from: q.from === undefined ? undefined : new Date(q.from * 1000),
    to: q.to === undefined ? undefined : new Date(q.to * 1000),
    types: q.type?.split(","),
    before: q.cursor ? parseCursor(q.cursor) : undefined,
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  return { events: page.map(toAuditEvent), nextCursor: rows.length > q.limit ? cursorOf(page.at(-1)!) : null };
}
