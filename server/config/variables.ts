import type { z } from "zod";
import type { ZEnv } from "./config.ts";

/**
 * What each environment variable means, for the configuration reference that
 * server/config/config-reference.ts renders into docs/reference/configuration.md. Defaults, ranges
 * and allowed values are not written here: they come from the schema (config.ts), so the reference
 * cannot drift from what the server accepts. `shown` is the default in words where the schema's is
 * computed at start (from PORT, the cores, the data dir). The record is keyed by the schema: a
 * variable added there without a line here does not compile.
 */
export type TVariableDoc = { text: string; shown?: string };

export const ENV_DOCS: Record<keyof z.input<typeof ZEnv>, TVariableDoc> = {
  PORT: { text: "HTTP port" },
  IDP_PUBLIC_URL: { text: "the URL clients reach the service at; the issuer is this URL plus the context path", shown: "`http://localhost:$PORT`" },
  IDP_INTERNAL_URL: { text: "where the server reaches itself (plus the context path): console and portal exchange their sign-in codes at the service's own token endpoint there, since behind a proxy the public URL may not be reachable from the server", shown: "`http://127.0.0.1:$PORT`" },
  IDP_CONTEXT_PATH: { text: "path prefix of everything served; `/` for the root. Fixed at build time: `npm start` rebuilds when it changes", shown: "`/idp`" },
  DATABASE_URL: { text: "`postgresql://…` to use PostgreSQL; unset means the embedded database in `IDP_DATA_DIR`" },
  IDP_DATA_DIR: { text: "embedded database and, when `IDP_SECRET_KEY` is unset, the generated `secret.key`" },
  IDP_IMPORT: { text: "JSON document applied at every start (see [the import document](../guides/import.md))" },
  IDP_ACCESS_TOKEN_TTL: { text: "access token lifetime in seconds" },
  IDP_SECRET_KEY: { text: "32+ characters; seals stored secrets (signing keys, OTP seeds, provider secrets, external tokens, outbox bodies), keys the console's and portal's sessions, and derives the built-in clients' secrets. Required with `DATABASE_URL`", shown: "generated in the data dir" },
  IDP_SECRET_KEY_PREVIOUS: { text: "comma-separated keys that only open what they sealed: the old key during a rotation ([key rotation](../key-rotation.md))" },
  IDP_WEBAUTHN_RP_ID: { text: "the passkeys' relying party id: the public URL's host or a domain it belongs to (`example.com` for `id.example.com` lets passkeys work across its subdomains). Changing it makes every registered passkey unusable", shown: "the public URL's host" },
  IDP_OUTBOUND_ALLOW: { text: "comma-separated host names, addresses or CIDR ranges that external providers' URLs may reach although they are private, loopback or link-local (e.g. `idp.corp.internal,10.20.0.0/16`)" },
  IDP_KEY_PUBLISH_AHEAD: { text: "seconds a rotated-in signing key is published in the JWKS before it signs" },
  IDP_SAML_KEY_PUBLISH_AHEAD: { text: "seconds a rotated-in SAML signing certificate is published in the SAML metadata before it signs" },
  IDP_ADMIN_PASSWORD: { text: "password of the `admin` account (15+ characters), used only when that account is first created. Required with `DATABASE_URL` on first start", shown: "generated and printed once (embedded only)" },
  IDP_LOG_LEVEL: { text: "the least severe log lines written" },
  SMTP_URL: { text: "SMTP server for e-mail: `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://user:password@host:465` (TLS); percent-encode `@ : /` in the password. Wins over the console's setting. Unset: the console's setting, or e-mails stay pending in the outbox" },
  MAIL_FROM: { text: "sender of e-mails, `Identity <no-reply@example.com>` or a bare address. Required with `SMTP_URL`" },
  SMS_WEBHOOK_URL: { text: "`http(s)://` endpoint that sends SMS (the request is in [messages](../guides/messages.md)). Wins over the console's setting. Unset: the console's setting, or SMS stay pending in the outbox" },
  SMS_WEBHOOK_TOKEN: { text: "16+ characters sent as `Authorization: Bearer …` to the webhook" },
  IDP_CODE_TTL: { text: "lifetime of a confirmation code in seconds" },
  IDP_CODE_ATTEMPTS: { text: "wrong codes allowed per confirmation" },
  IDP_CODE_RESEND_COOLDOWN: { text: "seconds before a new code may be requested" },
  IDP_REGISTRATION_MODE: { text: "`confirm-first`: an account is created once its contacts are confirmed; `create-first`: at once, with unconfirmed contacts" },
  IDP_SELF_SIGNUP: { text: "`on`: people may create their own account at `{ctx}/register` (linked from the sign-in page); `off`: that page answers 404. See [self sign-up](../guides/self-sign-up.md)" },
  IDP_RECOVERY: { text: "where \"Forgot password?\" on the sign-in page sends its code: `both` (a confirmed e-mail or phone), `email`, `phone`, or `off` (no link, the pages answer 404). See [account recovery](../guides/account-recovery.md)" },
  IDP_SESSION_TTL: { text: "lifetime of a browser sign-in session in seconds" },
  IDP_SESSION_IDLE_TTL: { text: "a browser sign-in session unused this many seconds ends too (0 turns the idle limit off)" },
  IDP_REAUTH_MAX_AGE: { text: "how old (seconds) the portal's sign-in may be for a sensitive change (password, second factor and generators, security question, e-mail or phone); an older one asks \"Confirm it's you\" and signs in again with `prompt=login` (password, and the second factor when on)" },
  IDP_REFRESH_TOKEN_TTL: { text: "default refresh token lifetime in seconds; each refresh starts a new one, never past `IDP_REFRESH_FAMILY_MAX_TTL`" },
  IDP_REFRESH_FAMILY_MAX_TTL: { text: "seconds after the sign-in when its refresh tokens end, however often they were rotated" },
  IDP_CLIENT_AUTH_FAILURES: { text: "failed client authentications per client id from one address in a window before that id is refused there with 429" },
  IDP_CLIENT_AUTH_IP_FAILURES: { text: "failed client authentications per address in a window" },
  IDP_CLIENT_AUTH_WINDOW: { text: "length of that window in seconds" },
  IDP_OUTBOX_RETENTION_DAYS: { text: "days an outbox message is kept after it was written, sent or not; the hourly maintenance deletes older ones" },
  IDP_PROPS_MAX_COUNT: { text: "user properties an account may have" },
  IDP_PROPS_MAX_NAME: { text: "longest property name in characters" },
  IDP_PROPS_MAX_VALUE: { text: "longest string property value in characters" },
  IDP_INACTIVITY_LOCK_DAYS: { text: "days without a sign-in after which an account is locked for inactivity; `0` turns the lock off" },
  IDP_INACTIVITY_SWEEP_INTERVAL: { text: "seconds between inactivity sweeps of each instance" },
  IDP_TRUSTED_PROXIES: { text: "reverse proxies in front of the service that append to `X-Forwarded-For`. With `0` the sign-in pages and client authentication count the TCP peer's address and ignore `X-Forwarded-For` (under `npm start`; `next dev` cannot see the peer and takes the header's last entry); with N they take the entry N places from the right" },
  IDP_QR_CODE_TTL: { text: "lifetime of a QR sign-in code in seconds" },
  IDP_OTP_ISSUER: { text: "issuer an authenticator app shows for a TOTP generator bound by QR code (no colon, up to 64 characters)", shown: "public URL's host" },
  IDP_METRICS_TOKEN: { text: "16+ printable characters a Prometheus scrape of `{ctx}/metrics` sends as `Authorization: Bearer …`. Unset: `{ctx}/metrics` answers 404 (see [metrics](../operations/metrics.md))" },
  IDP_DB_POOL_MAX: { text: "PostgreSQL connections per server process, besides the one each process keeps for LISTEN; see [scaling out](../operations/caches-and-scaling.md) for the sum that `max_connections` must cover" },
};

/**
 * Read before the configuration is parsed, by `npm start` and the production server (server/serve/),
 * which check them themselves: documented here with their defaults in words.
 */
export const PROCESS_ENV_DOCS: Record<string, TVariableDoc & { shown: string }> = {
  "IDP_FAST_PATH": { text: "`0` hands every request to Next instead of answering the API's operations on the fast path (see [serving](../operations/serving-and-tls.md)): for comparison, and as an escape hatch", shown: "`1`" },
  "IDP_SHUTDOWN_GRACE": { text: "seconds (0–3600) a stopping server (SIGTERM, SIGINT) lets requests in flight finish before it closes their connections", shown: "`10`" },
  "IDP_TLS_CERT, IDP_TLS_KEY": { shown: "unset", text: "PEM files of the server's certificate (with its chain) and key: `npm start` then speaks HTTPS itself, and the defaults of `IDP_PUBLIC_URL` and `IDP_INTERNAL_URL` start with `https://`. Both or neither (see [TLS and client certificates](../operations/serving-and-tls.md))" },
  "IDP_TLS_CLIENT_CA": { shown: "unset", text: "PEM file of the CA(s) whose client certificates authenticate client applications. With `IDP_TLS_CERT` the server asks for a certificate on every connection but does not require one; with `IDP_TLS_CLIENT_CERT_HEADER` a proxy's certificate is checked against it" },
  "IDP_TLS_CLIENT_CERT_HEADER": { shown: "unset", text: "header in which a TLS-terminating proxy passes the client certificate (e.g. `X-SSL-Client-Cert` set to nginx's `$ssl_client_escaped_cert`: URL-encoded PEM). Believed only from `IDP_TLS_PROXY_ADDRESSES`; requires `IDP_TLS_CLIENT_CA`" },
  "IDP_TLS_PROXY_ADDRESSES": { shown: "unset", text: "IP addresses and CIDRs (comma- or space-separated, e.g. `10.0.0.5, fd00::/8`) of the proxies allowed to send that header: the TCP peer address is compared, never `X-Forwarded-For`. From any other address the header is dropped" },
  "IDP_WORKERS": { text: "server processes sharing the port (1–64; see [scaling out](../operations/caches-and-scaling.md)). More than 1 needs `DATABASE_URL`: the embedded database belongs to one process", shown: "cores on PostgreSQL, `1` embedded" },
  "UV_THREADPOOL_SIZE": { text: "Node's thread pool, set by `npm start` when unset: it runs the password hashes (at most one per core, 2–8 at once) and the token signatures, so a burst of sign-ins leaves four threads to token requests. Read once when the process starts; the server's `listening` log line says what it runs with", shown: "password-hash limit + 4 (6 on 2 cores, 12 on 8 or more)" },
};
