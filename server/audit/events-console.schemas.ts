import { z } from "zod";
import { ZEventCursor, ZEventTypes } from "./audit.schemas.ts";

// A filter left empty in the form, or as `?sub=` in a hand-edited URL, means "any".
const text = (max: number) => z.string().trim().max(max);
const orBlank = <T extends z.ZodType<string, string>>(schema: T) => z.string().trim().pipe(z.union([z.literal(""), schema]));

/** The console's filter over the whole trail; the events page keeps it in its URL. */
export const ZEventFilterInput = z.strictObject({
  sub: text(256).optional().describe("the account the event is about: its sub, or a name, login, e-mail or phone the users search finds (up to 50 accounts)"),
  client: text(128).optional().describe("the client application, exactly"),
  type: orBlank(ZEventTypes).optional().describe("comma-separated event types, e.g. `user.signed_in,user.sign_in_failed`"),
  ip: text(64).optional().describe("the end user's address, exactly"),
  from: orBlank(z.iso.datetime({ offset: true })).optional().describe("ISO 8601 time: events at or after it"),
  to: orBlank(z.iso.datetime({ offset: true })).optional().describe("ISO 8601 time: events before it"),
});
export type TEventFilterInput = z.input<typeof ZEventFilterInput>;

export const ZListEventsRequest = ZEventFilterInput.extend({
  /** Keyset cursor: nextCursor of the page before. */
  after: ZEventCursor.optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListEventsRequest = z.input<typeof ZListEventsRequest>;
