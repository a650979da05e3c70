import { z } from "zod";
import { CHANNELS, LOCALES } from "./templates.ts";

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const;
export const ZOutboxStatus = z.enum(OUTBOX_STATUSES);

export const ZMessageId = z.uuid();

// createdAt (ISO, millisecond precision as stored) and id of the last message on the previous page.
const ZOutboxCursor = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z~[0-9a-f-]{36}$/, "not a cursor this list handed out");

export const ZListOutboxRequest = z.strictObject({
  status: ZOutboxStatus.optional(),
  after: ZOutboxCursor.optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListOutboxRequest = z.input<typeof ZListOutboxRequest>;

export const ZMessageRef = z.strictObject({ id: ZMessageId });

const ZEmailAddress = z.email({ error: "must be an e-mail address such as user@example.com" }).max(320);
const ZPhoneNumber = z
  .string()
  .trim()
  .regex(/^\+?[0-9]{5,15}$/, "must be a phone number of 5-15 digits, optionally starting with +");

/** The console's "send a test message": the recipient is checked against its channel. */
export const ZTestMessageRequest = z.discriminatedUnion("channel", [
  z.strictObject({ channel: z.literal("email"), to: z.string().trim().pipe(ZEmailAddress), locale: z.enum(LOCALES).optional() }),
  z.strictObject({ channel: z.literal("sms"), to: ZPhoneNumber, locale: z.enum(LOCALES).optional() }),
]);
export type TTestMessageRequest = z.infer<typeof ZTestMessageRequest>;

/** A message as the console lists it: never its text (see readMessageText). */
export const ZOutboxView = z.object({
  id: z.string(),
  channel: z.enum(CHANNELS),
  recipient: z.string(),
  subject: z.string().nullable(),
  template: z.string(),
  purpose: z.string(),
  locale: z.string(),
  userId: z.string().nullable(),
  status: ZOutboxStatus,
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.date().nullable(),
  createdAt: z.date(),
  sentAt: z.date().nullable(),
});
export type TOutboxView = z.infer<typeof ZOutboxView>;
