import { isIP } from "node:net";
import nodemailer from "nodemailer";
import type { TMessagingConfig, TSmsWebhookConfig, TSmtpConfig } from "../config/messaging-config.ts";
import { outboundFetch, resolveOutbound } from "../http/outbound.ts";
import { describeError, log } from "../log/logger.ts";
import type { TChannel } from "./templates.ts";

/** One message as a transport sends it. */
export type TOutgoing = { id: string; to: string; subject: string | null; text: string };

/** Sends one message or throws an Error whose message is the transport's own account of the failure. */
export type TTransport = { send(message: TOutgoing): Promise<void> };

/** The transport of each channel; a channel without one keeps its messages pending. */
export type TTransports = Partial<Record<TChannel, TTransport>>;

export const SMS_WEBHOOK_TIMEOUT_MS = 5_000;

// nodemailer waits minutes by default; a worker holding a claim must not (see LEASE_MS).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * E-mail over SMTP. The URL is parsed here rather than by nodemailer so that the timeouts apply and
 * a percent-encoded password is decoded: smtp:// upgrades with STARTTLS when offered, smtps:// is TLS.
 */
export function smtpTransport(config: TSmtpConfig): TTransport {
  const url = new URL(config.url);
  const secure = url.protocol === "smtps:";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const mailerTo = (address: string) =>
    nodemailer.createTransport({
      host: address,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      requireTLS: Boolean(config.requireTls) && !secure,
      // Connected by address, the certificate is still checked against the name that was configured.
      tls: isIP(host) ? {} : { servername: host },
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // Templates are plain text; nothing should ever make nodemailer read a file or fetch a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
      ...SMTP_TIMEOUTS,
    });
  const fixed = config.guarded ? undefined : mailerTo(host);
  return {
    async send(m) {
      // A console-typed server is resolved under the outbound rules at every send (DNS may change).
      const mailer = fixed ?? mailerTo(await resolveOutbound(host));
      await mailer.sendMail({ from: config.from, to: m.to, subject: m.subject ?? "", text: m.text, headers: { "X-Outbox-Id": m.id } });
    },
  };
}

function fetchFailure(e: unknown): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return `no answer within ${SMS_WEBHOOK_TIMEOUT_MS / 1000} s`;
  }
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED …) in the cause.
  const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
  return `${e instanceof Error ? e.message : String(e)}${cause}`;
}

/** SMS through an HTTP webhook: POST {id, to, text, channel:"sms"}; any 2xx is delivered. */
export function smsWebhookTransport(config: TSmsWebhookConfig): TTransport {
  const post = config.guarded ? outboundFetch : fetch;
  return {
    async send(m) {
      let res: Response;
      try {
        res = await post(config.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(config.token ? { authorization: `Bearer ${config.token}` } : {}) },
          body: JSON.stringify({ id: m.id, to: m.to, text: m.text, channel: "sms" }),
          // A redirect would carry the token elsewhere; it counts as a failure instead.
          redirect: "manual",
          signal: AbortSignal.timeout(SMS_WEBHOOK_TIMEOUT_MS),
        });
      } catch (e) {
        throw new Error(fetchFailure(e), { cause: e });
      }
      await res.body?.cancel();
      if (!res.ok) throw new Error(`webhook answered HTTP ${res.status} ${res.statusText}`.trim());
    },
  };
}

/** One channel's transport, or none (logged) when its settings cannot make one: the other channel still works. */
function transportOrNone<C>(channel: TChannel, config: C | undefined, make: (c: C) => TTransport): TTransport | undefined {
  if (!config) return undefined;
  try {
    return make(config);
  } catch (e) {
    log.warn("delivery settings cannot make a transport; its messages wait", { channel, ...describeError(e) });
    return undefined;
  }
}

/** The transports the configuration names. */
export function transportsFromConfig(config: TMessagingConfig): TTransports {
  return {
    email: transportOrNone("email", config.smtp, smtpTransport),
    sms: transportOrNone("sms", config.smsWebhook, smsWebhookTransport),
  };
}
