import { isIP } from "node:net";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { onChange, publishChange } from "../cache/change-bus.ts";
import { getConfig } from "../config/config.ts";
import type { TMessagingConfig } from "../config/messaging-config.ts";
import { sealFor, unsealFor } from "../crypto/keys.ts";
import { describeError, log } from "../log/logger.ts";
import { findDeliverySettings, updateDeliverySettings, type TStoredDelivery } from "./delivery-settings.repository.ts";
import { ZDeliverySettingsInput } from "./messaging.schemas.ts";
import type { TChannel } from "./templates.ts";

/*
 * Delivery can be set in two places: environment variables (the operator's) and the console (the
 * administrator's, stored with its secrets sealed). Per channel, the environment wins when it sets
 * that channel, so an installation configured by its deployment cannot be redirected from the console.
 */

const TOPIC = "delivery-settings";

export type TChannelSource = "environment" | "console";
export type TEffectiveMessaging = { config: TMessagingConfig; sources: Partial<Record<TChannel, TChannelSource>> };

/** The secret, or undefined when it cannot be opened (sealed under a key this process no longer has). */
function opened(sealed: string | null, what: string): string | undefined {
  if (!sealed) return undefined;
  try {
    return unsealFor("delivery-secrets", sealed);
  } catch (e) {
    log.warn(`stored ${what} cannot be unsealed; set it again in the console`, describeError(e));
    return undefined;
  }
}

/** The stored SMTP settings as the URL the transport reads; built by URL, so no field can add a part. */
function smtpUrlOf(row: TStoredDelivery): string {
  const url = new URL(row.smtpSecurity === "tls" ? "smtps://host" : "smtp://host");
  url.hostname = isIP(row.smtpHost!) === 6 ? `[${row.smtpHost}]` : row.smtpHost!;
  url.port = String(row.smtpPort);
  const password = opened(row.smtpPassword, "SMTP password");
  if (row.smtpUsername) {
    url.username = encodeURIComponent(row.smtpUsername);
    if (password) url.password = encodeURIComponent(password);
  }
  return url.toString().replace(/\/$/, "");
}

/** The console's settings as transports read them; console-typed addresses follow the outbound rules. */
function consoleConfig(row: TStoredDelivery | null): TMessagingConfig {
  return {
    smtp:
      row?.smtpHost && row.smtpPort && row.mailFrom
        ? { url: smtpUrlOf(row), from: row.mailFrom, guarded: true, requireTls: row.smtpSecurity !== "none" }
        : undefined,
    smsWebhook: row?.smsWebhookUrl ? { url: row.smsWebhookUrl, token: opened(row.smsWebhookToken, "SMS webhook token"), guarded: true } : undefined,
  };
}

/** Where messages go now: each channel from the environment when it sets it, else from the console. */
export async function effectiveMessaging(): Promise<TEffectiveMessaging> {
  const env = getConfig().messaging;
  const stored = await findDeliverySettings();
  const fromConsole = consoleConfig(stored);
  const smtp = env.smtp ?? fromConsole.smtp;
  const smsWebhook = env.smsWebhook ?? fromConsole.smsWebhook;
  return {
    config: { smtp, smsWebhook },
    sources: {
      ...(smtp ? { email: env.smtp ? "environment" : "console" } : {}),
      ...(smsWebhook ? { sms: env.smsWebhook ? "environment" : "console" } : {}),
    } as TEffectiveMessaging["sources"],
  };
}

/** What the console's forms show of the stored settings: never a secret, only whether one is set. */
export async function storedDeliveryForm() {
  const row = await findDeliverySettings();
  return {
    email: row?.smtpHost
      ? { host: row.smtpHost, port: row.smtpPort ?? 587, security: (row.smtpSecurity === "tls" || row.smtpSecurity === "none" ? row.smtpSecurity : "starttls") as "starttls" | "tls" | "none", username: row.smtpUsername ?? "", passwordSet: Boolean(row.smtpPassword), from: row.mailFrom ?? "" }
      : null,
    sms: row?.smsWebhookUrl ? { url: row.smsWebhookUrl, tokenSet: Boolean(row.smsWebhookToken) } : null,
  };
}

/**
 * The columns one channel's save writes. An absent secret keeps the stored one only while it would
 * go where it went before: a save that sends the login to another server, port, encryption or user,
 * or the token to another origin, drops it unless it is typed again. Otherwise whoever may change
 * the settings could send the saved secret to a server of their own without ever knowing it.
 */
function columnsOf(input: ReturnType<typeof ZDeliverySettingsInput.parse>, stored: TStoredDelivery | null): Partial<TStoredDelivery> {
  if (input.channel === "email") {
    const s = input.settings;
    if (!s) return { smtpHost: null, smtpPort: null, smtpSecurity: null, smtpUsername: null, smtpPassword: null, mailFrom: null };
    const username = s.username || null;
    const sameDestination = stored?.smtpHost === s.host && stored.smtpPort === s.port && stored.smtpSecurity === s.security && stored.smtpUsername === username;
    return {
      smtpHost: s.host,
      smtpPort: s.port,
      smtpSecurity: s.security,
      smtpUsername: username,
      mailFrom: s.from,
      ...(!username ? { smtpPassword: null } : s.password ? { smtpPassword: sealFor("delivery-secrets", s.password) } : sameDestination ? {} : { smtpPassword: null }),
    };
  }
  const s = input.settings;
  if (!s) return { smsWebhookUrl: null, smsWebhookToken: null };
  const sameOrigin = stored?.smsWebhookUrl != null && new URL(stored.smsWebhookUrl).origin === new URL(s.url).origin;
  return {
    smsWebhookUrl: s.url,
    ...(s.removeToken ? { smsWebhookToken: null } : s.token ? { smsWebhookToken: sealFor("delivery-secrets", s.token) } : sameOrigin ? {} : { smsWebhookToken: null }),
  };
}

/**
 * Saves (or clears) one channel's settings and tells every process, whose delivery workers pick the
 * new transport up. Recorded without any secret: which channel, what was set, whether a secret changed.
 */
export async function changeDeliverySettings(raw: unknown, actor: TEventActor): Promise<void> {
  const input = ZDeliverySettingsInput.parse(raw);
  const columns = columnsOf(input, await findDeliverySettings());
  await updateDeliverySettings(columns);
  await publishChange(TOPIC);
  // Whether the save set or dropped a secret (a value, or null), never which.
  const secretChanged = "smtpPassword" in columns || "smsWebhookToken" in columns;
  const detail =
    input.channel === "email"
      ? input.settings && { host: input.settings.host, port: input.settings.port, security: input.settings.security, from: input.settings.from }
      : input.settings && { url: input.settings.url.replace(/\?.*$/, "") };
  await recordEvent("delivery.settings_changed", actor, { channel: input.channel, cleared: !input.settings, ...(detail ?? {}), secretChanged });
}

/** Runs `handler` when any process saved delivery settings (the delivery worker reloads its transports). */
export function onDeliverySettingsChange(handler: () => void): () => void {
  return onChange(TOPIC, () => handler());
}
