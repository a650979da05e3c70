import { z } from "zod";

/** A security event as the audit read shows it; params are redacted when recorded. */
export const ZAuditEvent = z
  .object({
    id: z.string(),
    type: z.string().describe("e.g. user.attributes_changed, user.contact_confirmed, user.registered"),
    time: z.number().int().describe("Unix time in seconds"),
    clientId: z.string().nullable().describe("the client application that acted"),
    ip: z.string().nullable().describe("the end user's IP (X-Forwarded-For in user mode)"),
    userAgent: z.string().nullable(),
    params: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "AuditEvent" });
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditPage = z
  .object({ events: z.array(ZAuditEvent), nextCursor: z.string().nullable().describe("pass as `cursor` for the next (older) page") })
  .meta({ id: "AuditPage" });
export type TAuditPage = z.infer<typeof ZAuditPage>;

const ZUnixTime = z.coerce.number().int().min(0).max(32_503_680_000);

/** One or more event types, comma-separated. */
export const ZEventTypes = z
  .string()
  .max(500)
  .regex(/^[a-z0-9_.]+(,[a-z0-9_.]+)*$/, "comma-separated event types");

/** A position in the trail, as nextCursor gave it: milliseconds and the event id. */
export const ZEventCursor = z.string().regex(/^\d{1,15}\.\d{1,19}$/, "a cursor from nextCursor");

export const ZAuditQuery = z.strictObject({
  from: ZUnixTime.optional().describe("Unix time: events at or after it"),
  to: ZUnixTime.optional().describe("Unix time: events before it"),
  type: ZEventTypes.optional().describe("comma-separated event types, e.g. `user.contact_confirmed,user.attributes_changed`"),
  cursor: ZEventCursor.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;
