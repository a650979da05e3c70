import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { toAccountConfig, ZAccountEnv, type TAccountConfig } from "./account-config.ts";
// In a file of its own: messaging-config.ts raises it too, and would otherwise import this file back.
import { ConfigError } from "./config-error.ts";
import { parseContextPath } from "./context-path.mjs";
import { ZInt } from "./env-int.ts";
import { toMessagingConfig, ZMessagingEnv, type TMessagingConfig } from "./messaging-config.ts";
import { parseWorkers, usableCores } from "./workers.mjs";

export { ConfigError };

export const ZEnv = z.object({
  PORT: ZInt(1, 65535, 3000),
  IDP_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://id.example.com" })
    .optional(),
  IDP_CONTEXT_PATH: z.string().optional(),
  IDP_INTERNAL_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:3000" })
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection URL")
    .optional(),
  IDP_DATA_DIR: z.string().min(1).default("./data"),
  IDP_IMPORT: z.string().min(1).optional(),
  IDP_ACCESS_TOKEN_TTL: ZInt(60, 86_400, 3600),
  // Twice the JWKS's max-age (300 s): resource servers that cached it just before a rotation have refetched.
  IDP_KEY_PUBLISH_AHEAD: ZInt(0, 86_400, 600),
  IDP_SAML_KEY_PUBLISH_AHEAD: ZInt(0, 90 * 86_400, 7 * 86_400),
  // Hosts and ranges administrator-typed URLs may reach although private (server/http/outbound.ts).
  IDP_OUTBOUND_ALLOW: z
    .string()
    .transform((v) => v.split(",").map((k) => k.trim()).filter(Boolean))
    .refine((entries) => entries.every((e) => /^[A-Za-z0-9.:-]+(\/\d{1,3})?$/.test(e)), "must be host names, addresses or CIDR ranges, comma-separated")
    .optional(),
  // The passkeys' relying party: a host name the public URL's host is, or ends in (server/passkeys/).
  IDP_WEBAUTHN_RP_ID: z
    .string()
    .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "must be a lower-case host name such as example.com")
    .optional(),
  IDP_SECRET_KEY: z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
  // Keys that still open what was sealed under them (a rotation's old key, or its next one while instances switch).
  IDP_SECRET_KEY_PREVIOUS: z
    .string()
    .transform((v) => v.split(",").map((k) => k.trim()).filter(Boolean))
    .refine((keys) => keys.every((k) => k.length >= 32), "every key must be at least 32 characters")
    .optional(),
  // The administrator's password is usually its only factor: the single-factor minimum of the password policy.
  IDP_ADMIN_PASSWORD: z.string().min(15, "must be at least 15 characters").optional(),
  IDP_LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ...ZMessagingEnv.shape,
  IDP_CODE_TTL: ZInt(60, 86_400, 600),
  IDP_CODE_ATTEMPTS: ZInt(1, 10, 3),
  IDP_CODE_RESEND_COOLDOWN: ZInt(0, 3600, 60),
  IDP_REGISTRATION_MODE: z.enum(["confirm-first", "create-first"]).default("confirm-first"),
  IDP_SESSION_TTL: ZInt(300, 2_592_000, 36_000),
  // A browser session unused this long ends too (Keycloak's "SSO Session Idle"); 0 turns it off.
  IDP_SESSION_IDLE_TTL: ZInt(0, 2_592_000, 1_800),
  IDP_REAUTH_MAX_AGE: ZInt(1, 86_400, 300),
  IDP_REFRESH_TOKEN_TTL: ZInt(60, 31_536_000, 2_592_000),
  // However often it is rotated, a refresh token family ends this long after the sign-in it comes from.
  IDP_REFRESH_FAMILY_MAX_TTL: ZInt(3_600, 31_536_000, 7_776_000),
  IDP_TRUSTED_PROXIES: ZInt(0, 10, 0),
  IDP_QR_CODE_TTL: ZInt(2, 600, 120),
  IDP_CLIENT_AUTH_FAILURES: ZInt(1, 1000, 10),
  IDP_CLIENT_AUTH_IP_FAILURES: ZInt(1, 100_000, 30),
  IDP_CLIENT_AUTH_WINDOW: ZInt(1, 3600, 60),
  IDP_OUTBOX_RETENTION_DAYS: ZInt(1, 3650, 30),
  IDP_DB_POOL_MAX: ZInt(1, 100, 10),
  IDP_SELF_SIGNUP: z.enum(["on", "off"], { error: "must be on or off" }).default("off"),
  IDP_RECOVERY: z.enum(["both", "email", "phone", "off"], { error: "must be both, email, phone or off" }).default("both"),
  ...ZAccountEnv.shape,
  IDP_OTP_ISSUER: z.string().max(64, "must be at most 64 characters").regex(/^[^:]*$/, "must not contain a colon").optional(),
  IDP_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters (e.g. `openssl rand -hex 24`)").regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces").optional(),
});

export type TConfig = {
  port: number;
  publicUrl: string;
  contextPath: string;
  /** public URL + context path: the OAuth issuer and the base of every published URL. */
  issuer: string;
  /**
   * Where the server reaches itself (plus the context path): the console and portal exchange their
   * sign-in codes at the service's own token endpoint, which behind a proxy the public URL may not reach.
   */
  internalUrl: string;
  /** poolMax: connections of this process's pool (IDP_DB_POOL_MAX), besides the one that LISTENs. */
  database: { kind: "postgres"; url: string; poolMax?: number } | { kind: "embedded"; dir: string };
  dataDir: string;
  importFile?: string;
  accessTokenTtl: number;
  /** Seconds a rotated-in signing key is published before it signs. */
  keyPublishAhead: number;
  /** The same for the SAML signing key: service providers re-read metadata far less often than resource servers a JWKS. */
  samlKeyPublishAhead: number;
  /** IDP_OUTBOUND_ALLOW: private hosts and ranges administrator-typed URLs may reach anyway. */
  outboundAllow: string[];
  /** The passkeys' relying party id: IDP_WEBAUTHN_RP_ID, or the public URL's host. */
  webauthnRpId: string;
  secretKey?: string;
  /** IDP_SECRET_KEY_PREVIOUS: keys that only open sealed values (docs/key-rotation.md). */
  previousSecretKeys: string[];
  adminPassword?: string;
  logLevel: "debug" | "info" | "warn" | "error";
  messaging: TMessagingConfig;
  /** Confirmation codes: lifetime and resend cooldown in seconds, wrong attempts allowed. */
  codes: { ttl: number; attempts: number; resendCooldown: number };
  /** Registration creates the account after every contact is confirmed, or at once. */
  registrationMode: "confirm-first" | "create-first";
  /** Lifetime of a browser sign-in session, in seconds. */
  sessionTtl: number;
  /** Seconds a browser session may go unused before it ends; 0: no idle limit. */
  sessionIdleTtl: number;
  /** How old (seconds) the portal's sign-in may be for a sensitive change before the password is asked again. */
  reauthMaxAge: number;
  /** Default lifetime of a refresh token, in seconds (a client may set its own). */
  refreshTokenTtl: number;
  /** Seconds from the sign-in after which no refresh of its family is issued, rotations or not. */
  refreshFamilyMaxTtl: number;
  /** Reverse proxies in front of the service that append to X-Forwarded-For. */
  trustedProxies: number;
  /** Lifetime of a QR sign-in code, in seconds. */
  qrCodeTtl: number;
  /** Failed client authentications allowed per client id and per address in a window of `windowS` seconds. */
  clientAuthLimits: { perClient: number; perIp: number; windowS: number };
  /** Days a message stays in the outbox after it was written, whatever became of it. */
  outboxRetentionDays: number;
  /** People may create their own account at {ctx}/register. */
  selfSignUp: boolean;
  /** Where "Forgot password?" may send its code: a confirmed e-mail, a confirmed phone; none turns it off. */
  recovery: { email: boolean; phone: boolean };
  /** User properties' limits and the inactivity lock. */
  account: TAccountConfig;
  /** Issuer shown in authenticator apps for TOTP generators bound by QR code; unset: the public URL's host. */
  otpIssuer?: string;
  /** Bearer token a Prometheus scrape of {ctx}/metrics must send; unset: the endpoint answers 404. */
  metricsToken?: string;
  /** Server processes on one port (IDP_WORKERS, server/serve/cluster.mjs): one per core on PostgreSQL, 1 embedded. */
  workers: number;
};

/** Parses the environment once; throws ConfigError naming the first bad variable. */
export function parseConfig(env: Record<string, string | undefined>): TConfig {
  // Empty strings are how shells and compose files say "unset".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // Secrets are never echoed back, not even the wrong ones; connection URLs may carry passwords.
    const shown = /SECRET|PASSWORD|DATABASE_URL|SMTP_URL|SMS_WEBHOOK_|METRICS_TOKEN/.test(name) ? "" : ` (got "${cleaned[name] ?? ""}")`;
    throw new ConfigError(`${name}: ${issue.message}${shown}`);
  }
  const e = parsed.data;
  const contextPath = parseContextPath(e.IDP_CONTEXT_PATH);
  if (!contextPath.ok) throw new ConfigError(`IDP_CONTEXT_PATH: ${contextPath.reason}`);
  if (e.DATABASE_URL && !e.IDP_SECRET_KEY) {
    // The embedded mode can keep a generated key in its data dir; a shared database cannot.
    throw new ConfigError("IDP_SECRET_KEY: is required when DATABASE_URL is set");
  }
  const workers = parseWorkers(cleaned.IDP_WORKERS, e.DATABASE_URL, usableCores(availableParallelism()));
  if (!workers.ok) throw new ConfigError(`IDP_WORKERS: ${workers.reason}`);
  // The production server speaks HTTPS itself with IDP_TLS_CERT (server/serve/tls.mjs checks the TLS variables).
  const scheme = cleaned.IDP_TLS_CERT ? "https" : "http";
  const publicUrl = (e.IDP_PUBLIC_URL ?? `${scheme}://localhost:${e.PORT}`).replace(/\/+$/, "");
  const dataDir = path.resolve(e.IDP_DATA_DIR);
  const publicHost = new URL(publicUrl).hostname;
  const rpId = e.IDP_WEBAUTHN_RP_ID ?? publicHost;
  // A browser refuses an RP id that is not the page's host or a suffix of it: catch that at start.
  if (publicHost !== rpId && !publicHost.endsWith(`.${rpId}`)) {
    throw new ConfigError(`IDP_WEBAUTHN_RP_ID: must be ${publicHost} or a domain it belongs to (got "${rpId}")`);
  }
  return {
    port: e.PORT,
    publicUrl,
    contextPath: contextPath.value,
    issuer: publicUrl + contextPath.value,
    internalUrl: (e.IDP_INTERNAL_URL ?? `${scheme}://127.0.0.1:${e.PORT}`).replace(/\/+$/, "") + contextPath.value,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL, poolMax: e.IDP_DB_POOL_MAX }
      : { kind: "embedded", dir: path.join(dataDir, "pglite") },
    dataDir,
    importFile: e.IDP_IMPORT ? path.resolve(e.IDP_IMPORT) : undefined,
    accessTokenTtl: e.IDP_ACCESS_TOKEN_TTL,
    keyPublishAhead: e.IDP_KEY_PUBLISH_AHEAD,
    samlKeyPublishAhead: e.IDP_SAML_KEY_PUBLISH_AHEAD,
    outboundAllow: e.IDP_OUTBOUND_ALLOW ?? [],
    webauthnRpId: rpId,
    secretKey: e.IDP_SECRET_KEY,
    previousSecretKeys: e.IDP_SECRET_KEY_PREVIOUS ?? [],
    adminPassword: e.IDP_ADMIN_PASSWORD,
    logLevel: e.IDP_LOG_LEVEL,
    messaging: toMessagingConfig(e),
    codes: { ttl: e.IDP_CODE_TTL, attempts: e.IDP_CODE_ATTEMPTS, resendCooldown: e.IDP_CODE_RESEND_COOLDOWN },
    registrationMode: e.IDP_REGISTRATION_MODE,
    sessionTtl: e.IDP_SESSION_TTL,
    sessionIdleTtl: e.IDP_SESSION_IDLE_TTL,
    reauthMaxAge: e.IDP_REAUTH_MAX_AGE,
    refreshTokenTtl: e.IDP_REFRESH_TOKEN_TTL,
    refreshFamilyMaxTtl: e.IDP_REFRESH_FAMILY_MAX_TTL,
    trustedProxies: e.IDP_TRUSTED_PROXIES,
    qrCodeTtl: e.IDP_QR_CODE_TTL,
    clientAuthLimits: { perClient: e.IDP_CLIENT_AUTH_FAILURES, perIp: e.IDP_CLIENT_AUTH_IP_FAILURES, windowS: e.IDP_CLIENT_AUTH_WINDOW },
    outboxRetentionDays: e.IDP_OUTBOX_RETENTION_DAYS,
    selfSignUp: e.IDP_SELF_SIGNUP === "on",
    recovery: { email: e.IDP_RECOVERY === "both" || e.IDP_RECOVERY === "email", phone: e.IDP_RECOVERY === "both" || e.IDP_RECOVERY === "phone" },
    account: toAccountConfig(e),
    otpIssuer: e.IDP_OTP_ISSUER,
    metricsToken: e.IDP_METRICS_TOKEN,
    workers: workers.value,
  };
}

const KEY = Symbol.for("idp.config");
type Holder = { [KEY]?: TConfig };

/** The process-wide configuration, parsed from process.env on first use. */
export function getConfig(): TConfig {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= parseConfig(process.env));
}
