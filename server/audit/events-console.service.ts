import { log, describeError } from "../log/logger.ts";
import { labelsOf, subjectsMatching, type TPersonLabel } from "../users/users-console.service.ts";
import { readEventPage, toAuditEvent } from "./audit-read.service.ts";
import type { TEventFilter, TEventRecord } from "./audit.repository.ts";
import type { TAuditEvent } from "./audit.schemas.ts";
import { recordEvent, type TEventActor } from "./audit.service.ts";
import { csvRecord } from "./csv.ts";
import { ZEventFilterInput, ZListEventsRequest, type TEventFilterInput, type TListEventsRequest } from "./events-console.schemas.ts";

/** An event as the console lists it: the REST shape, plus the account it is about and how to name it. */
export type TConsoleEvent = TAuditEvent & { subject: string | null; person: TPersonLabel | null };

/** How many accounts a "user" filter given as a name or contact may stand for; the rest are not searched. */
const PEOPLE_LIMIT = 50;

/**
 * The repository's filter from the console's; empty fields mean "any". The user field is the
 * subject itself (an account deleted since still has its events) or any account the users search
 * finds for it: a name, login, e-mail or phone.
 */
export async function eventFilterOf(input: TEventFilterInput): Promise<TEventFilter> {
  const f = ZEventFilterInput.parse(input);
  const given = (v: string | undefined) => v || undefined;
  const people = f.sub ? await subjectsMatching(f.sub, PEOPLE_LIMIT) : [];
  return {
    subjects: f.sub ? [...new Set([f.sub, ...people])] : undefined,
    clientId: given(f.client),
    ip: given(f.ip),
    types: given(f.type)?.split(","),
    from: f.from ? new Date(f.from) : undefined,
    to: f.to ? new Date(f.to) : undefined,
  };
}

/** The events page: the whole trail, filtered, newest first, keyset pages. */
export async function listEvents(req: TListEventsRequest): Promise<{ items: TConsoleEvent[]; nextCursor: string | null }> {
  const { after, limit, ...filter } = ZListEventsRequest.parse(req);
  const { rows, nextCursor } = await readEventPage(await eventFilterOf(filter), { cursor: after, limit });
  const people = await labelsOf(rows.flatMap((e) => (e.subject ? [e.subject] : [])));
  return { items: rows.map((e) => ({ ...toAuditEvent(e), subject: e.subject ?? null, person: (e.subject && people.get(e.subject)) || null })), nextCursor };
}

export const CSV_COLUMNS = ["id", "time", "type", "subject", "client", "ip", "user_agent", "params"];
// Excel reads a CSV file as the system's ANSI code page unless it starts with a byte order mark;
// without it Russian names and User-Agents turn into mojibake there.
const BOM = "\uFEFF";
// Rows are read a page at a time, when the reader wants more: memory stays bounded however many there are.
const EXPORT_PAGE = 500;

const csvRowOf = (e: TEventRecord) =>
  csvRecord([String(e.id), e.createdAt.toISOString(), e.type, e.subject, e.clientId, e.ip, e.userAgent, JSON.stringify(e.params)]);

/** The filtered events as CSV, newest first, streamed page by page. */
export function streamEventsCsv(filter: TEventFilter, pageSize = EXPORT_PAGE): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(BOM + csvRecord(CSV_COLUMNS)));
        return;
      }
      try {
        const page = await readEventPage(filter, { cursor, limit: pageSize });
        if (page.rows.length) controller.enqueue(encoder.encode(page.rows.map(csvRowOf).join("")));
        if (page.nextCursor) cursor = page.nextCursor;
        else controller.close();
      } catch (e) {
        // The status line has gone out already: the download ends short, and the log says why.
        log.error("events export failed", describeError(e));
        controller.error(e);
      }
    },
  });
}

/**
 * The CSV export of the events page. Reading the trail in bulk is itself worth a trace: the export
 * is recorded (with its filter) before the first row goes out.
 */
export async function exportEvents(input: TEventFilterInput, admin: TEventActor): Promise<ReadableStream<Uint8Array>> {
  const filter = await eventFilterOf(input);
  const shown = Object.fromEntries(Object.entries(ZEventFilterInput.parse(input)).filter(([, v]) => v));
  await recordEvent("console.events_exported", admin, { filter: shown });
  return streamEventsCsv(filter);
}
