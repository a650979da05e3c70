import { isIP } from "node:net";
import { z } from "zod";
import { MAIL_FROM } from "../config/messaging-config.ts";
import { CHANNELS, LOCALES, TEMPLATE_NAMES, type TTemplateName } from "./templates.ts";

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

const HOST_NAME = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A host name or an IP address (IPv6 with or without brackets); never a port or anything else. */
const ZHost = z
  .string()
  .trim()
  .min(1, "is required")
  .max(253)
  .transform((v) => v.replace(/^\[(.*)\]$/, "$1"))
  .refine((v) => isIP(v) !== 0 || HOST_NAME.test(v), "must be a host name such as smtp.example.com, or an IP address (the port has its own field)");

/** Loopback: the only place a console-typed connection may go without encryption. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return h === "localhost" || h === "::1" || (isIP(h) === 4 && h.startsWith("127."));
}

/**
 * The console's SMTP settings. `password` absent keeps the stored one (the form never shows it);
 * without a username there is no login and no password.
 */
export const ZEmailDeliveryInput = z
  .strictObject({
    host: ZHost,
    port: z.number({ error: "must be a port number" }).int("must be a port number").min(1, "must be 1-65535").max(65535, "must be 1-65535"),
    /** starttls: the upgrade is required (a server that does not offer it is refused); none: loopback only. */
    security: z.enum(["starttls", "tls", "none"]),
    username: z.string().trim().max(256).optional(),
    password: z.string().min(1).max(1024).optional(),
    from: z.string().trim().max(320).regex(MAIL_FROM, 'must be an address such as "Identity <no-reply@example.com>"'),
  })
  .refine((s) => s.security !== "none" || isLoopbackHost(s.host), { message: "only a server on this machine (loopback) may be used without encryption", path: ["security"] });

/** The console's SMS webhook. `token` absent keeps the stored one; `removeToken` drops it. */
export const ZSmsDeliveryInput = z.strictObject({
  url: z
    .string()
    .trim()
    .max(2048)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), "must be an http(s) URL such as https://sms.example.com/send")
    // The bearer token travels with every message: in clear only to this machine.
    .refine((v) => !URL.canParse(v) || new URL(v).protocol === "https:" || isLoopbackHost(new URL(v).hostname), "must be https (http only on this machine): the token goes with every message")
    // The URL is shown to everyone who may read the console: a secret belongs in the bearer token.
    .refine((v) => !URL.canParse(v) || (!new URL(v).search && !new URL(v).hash && !new URL(v).username && !new URL(v).password), "must not carry a query string, a fragment or a password: put the secret in the bearer token"),
  token: z.string().min(16, "must be at least 16 characters").max(1024).optional(),
  removeToken: z.boolean().optional(),
});

/** Saves one channel's settings, or clears them (null). */
export const ZDeliverySettingsInput = z.discriminatedUnion("channel", [
  z.strictObject({ channel: z.literal("email"), settings: ZEmailDeliveryInput.nullable() }),
  z.strictObject({ channel: z.literal("sms"), settings: ZSmsDeliveryInput.nullable() }),
]);
export type TDeliverySettingsInput = z.infer<typeof ZDeliverySettingsInput>;

/** One message text: which template, channel and language. */
export const ZTemplateKey = z.strictObject({
  template: z.enum(TEMPLATE_NAMES as [TTemplateName, ...TTemplateName[]]),
  channel: z.enum(CHANNELS),
  locale: z.enum(LOCALES),
});

/** A rewritten text; its placeholders are checked against the template by the service. */
export const ZTemplateTextInput = ZTemplateKey.extend({
  subject: z.string().max(200, "must be at most 200 characters").nullable(),
  text: z.string().max(4000, "must be at most 4000 characters").refine((v) => v.trim() !== "", "is required"),
});
export type TTemplateTextInput = z.infer<typeof ZTemplateTextInput>;
