import { consoleUserOf, readConsoleSession } from "../auth/console-session.ts";
import { AppError } from "../errors/app-error.ts";
import { defineRoute } from "../caller/define-route.ts";
import { browserActor } from "../http/request-context.ts";
import { ZEventFilterInput } from "./events-console.schemas.ts";
import { exportEvents } from "./events-console.service.ts";
import { Answer, type TIncoming } from "../http/exchange.ts";

/** The console's administrator behind the request's session cookie, as the audit trail names them. */
async function consoleAdmin(req: TIncoming) {
  const admin = await consoleUserOf(await readConsoleSession());
  if (!admin) throw new AppError("console.admin_required");
  return { subject: admin.id, ...browserActor(req) };
}

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");

// A download link of the console rather than an API operation: it is authorised by the console's
// session cookie (route handlers sit outside the console layout that checks it for pages).
export const exportEventsRoute = defineRoute(
  {
    method: "GET",
    path: "/console/events/export",
    summary: "Security events as CSV (console)",
    description:
      "The console's events page as a `text/csv` download (RFC 4180, UTF-8 with a byte order mark), newest first, with the page's filters. " +
      "Requires the console session of an administrator (cookie). Fields starting with `=`, `+`, `-` or `@` get a leading apostrophe so " +
      "spreadsheets show them as text. Columns: id, time (ISO 8601), type, subject, client, ip, user_agent, params (JSON).",
    tags: ["Console"],
    auth: { kind: "none" },
    query: ZEventFilterInput,
    response: { status: 200, description: "The events, streamed as CSV" },
    errors: ["console.admin_required"],
    nextRequestScope: true,
  },
  async ({ query, request }) => {
    const body = await exportEvents(query, await consoleAdmin(request));
    return new Answer(200, {
        "content-type": "text/csv; charset=utf-8; header=present",
        "content-disposition": `attachment; filename="security-events-${stamp(new Date())}.csv"`,
        "cache-control": "no-store",
      }, body);
  },
);
