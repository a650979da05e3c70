import { z } from "zod";
import { ConfigError } from "./config-error.ts";

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname !== "";
  } catch {
    return false;
  }
}

// "Name <box@host>" or "box@host": what an SMTP server accepts in From. No control characters, and
// a comma only inside a quoted name: unquoted, it would make the header name a second address.
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
export const MAIL_FROM = /^(?:(?:"[^"\x00-\x1f\x7f]*"|[^<>",\x00-\x1f\x7f]*)\s*<[^<>@\s,]+@[^<>@\s,]+>|[^<>@\s,]+@[^<>@\s,]+)$/;

/** The environment variables of e-mail and SMS delivery; all optional (unset: messages stay pending). */
export const ZMessagingEnv = z.object({
  SMTP_URL: z
    .string()
    .refine((v) => isUrlWith(v, ["smtp:", "smtps:"]), "must be smtp://user:password@host:587 (STARTTLS when offered) or smtps://… (TLS)")
    .optional(),
  MAIL_FROM: z.string().regex(MAIL_FROM, 'must be an address such as "Identity <no-reply@example.com>"').optional(),
  SMS_WEBHOOK_URL: z.string().refine((v) => isUrlWith(v, ["http:", "https:"]), "must be an http(s) URL").optional(),
  SMS_WEBHOOK_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
});
type TMessagingEnv = z.infer<typeof ZMessagingEnv>;

/** Where messages go; a channel without an entry has no transport. */
export type TMessagingConfig = {
  smtp?: TSmtpConfig;
  smsWebhook?: TSmsWebhookConfig;
};

/**
 * `guarded`: the address was typed in the console, so the connection follows the outbound rules
 * (no private or loopback address unless IDP_OUTBOUND_ALLOW allows it); the environment's is trusted.
 * `requireTls`: an smtp:// connection that must upgrade with STARTTLS, or fail, rather than send the
 * login in clear when someone on the way strips the server's offer.
 */
export type TSmtpConfig = { url: string; from: string; guarded?: boolean; requireTls?: boolean };
export type TSmsWebhookConfig = { url: string; token?: string; guarded?: boolean };

export function toMessagingConfig(e: TMessagingEnv): TMessagingConfig {
  if (e.SMTP_URL && !e.MAIL_FROM) throw new ConfigError("MAIL_FROM: is required when SMTP_URL is set");
  if (e.SMS_WEBHOOK_TOKEN && !e.SMS_WEBHOOK_URL) throw new ConfigError("SMS_WEBHOOK_TOKEN: is set but SMS_WEBHOOK_URL is not");
  return {
    smtp: e.SMTP_URL && e.MAIL_FROM ? { url: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    smsWebhook: e.SMS_WEBHOOK_URL ? { url: e.SMS_WEBHOOK_URL, token: e.SMS_WEBHOOK_TOKEN } : undefined,
  };
}
