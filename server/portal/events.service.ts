import { readEventPage, toAuditEvent } from "../audit/audit-read.service.ts";
import type { TAuditEvent } from "../audit/audit.schemas.ts";
import { describeUserAgent } from "../sessions/user-agent.ts";
import { ZEventsQuery, type TEventsQuery } from "./portal.schemas.ts";

/** An event as the portal lists it: the audit read's, with the browser named as the devices page names it. */
export type TPortalEvent = TAuditEvent & { device: string | null };

/** The signed-in person's own security events (GET …/audit), newest first, a page at a time. */
export async function listOwnEvents(sub: string, query: TEventsQuery): Promise<{ events: TPortalEvent[]; nextCursor: string | null }> {
  const q = ZEventsQuery.parse(query);
  const types = q.types?.length ? q.types : undefined;
  const { rows, nextCursor } = await readEventPage({ subject: sub, types }, { cursor: q.cursor, limit: q.limit });
  const events = rows.map((r) => {
    const e = toAuditEvent(r);
    return { ...e, device: e.userAgent ? describeUserAgent(e.userAgent).name : null };
  });
  return { events, nextCursor };
}
