import { Attribute, Change, Client, ConstraintViolationError, InsufficientAccessError, InvalidCredentialsError, NoSuchObjectError, ResultCodeError, UnwillingToPerformError, type Entry } from "ldapts";
import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import { unsealFor } from "../crypto/keys.ts";
import type { TDirectory } from "./directories.repository.ts";
import { directoryEndpoint } from "./directory-url.ts";

/*
 * The one place that talks LDAP (ldapts): a connection over TLS to a directory, bound as the
 * service to search, or as a person to check their password. Every failure to reach or use the
 * directory is a DirectoryUnavailable; a wrong password is an answer, not a failure.
 */

const CONNECT_TIMEOUT_MS = 5_000;
const OPERATION_TIMEOUT_MS = 10_000;

/** What went wrong, in words the console's connection test can say in either language. */
export type TLdapProblem =
  | "url"
  | "refused"
  | "unknown_host"
  | "unreachable"
  | "timeout"
  | "tls_untrusted"
  | "tls_name"
  | "tls_expired"
  | "tls_failed"
  | "starttls_refused"
  | "bad_credentials"
  | "no_such_object"
  | "access_denied"
  | "other";

/** Where it went wrong: reaching the directory (TCP and TLS), the service's bind, or what was asked after. */
export type TLdapStage = "connect" | "bind" | "work";

/** The directory cannot be reached or used (down, TLS refused, the service's bind refused, a timeout). */
export class DirectoryUnavailable extends Error {
  override name = "DirectoryUnavailable";
  constructor(
    message: string,
    readonly stage: TLdapStage = "work",
    readonly problem: TLdapProblem = "other",
  ) {
    super(message);
  }
}

const TLS_UNTRUSTED = new Set(["SELF_SIGNED_CERT_IN_CHAIN", "DEPTH_ZERO_SELF_SIGNED_CERT", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_UNTRUSTED", "CERT_SIGNATURE_FAILURE"]);
const BY_CODE: Record<string, TLdapProblem> = {
  ECONNREFUSED: "refused",
  ENOTFOUND: "unknown_host",
  EAI_AGAIN: "unknown_host",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  ETIMEDOUT: "timeout",
  ERR_TLS_CERT_ALTNAME_INVALID: "tls_name",
  CERT_HAS_EXPIRED: "tls_expired",
  CERT_NOT_YET_VALID: "tls_expired",
};

/** The problem a failure of ldapts or of the socket under it amounts to. */
function problemOf(e: unknown): TLdapProblem {
  if (e instanceof InvalidCredentialsError) return "bad_credentials";
  if (e instanceof NoSuchObjectError) return "no_such_object";
  if (e instanceof InsufficientAccessError) return "access_denied";
  if (e instanceof ResultCodeError) return "other";
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (TLS_UNTRUSTED.has(code)) return "tls_untrusted";
    if (BY_CODE[code]) return BY_CODE[code];
    if (code.startsWith("ERR_SSL_") || code === "ECONNRESET") return "tls_failed";
  }
  return /timeout|timed out/i.test(e instanceof Error ? e.message : "") ? "timeout" : "other";
}

export type TConnectable = Pick<TDirectory, "id" | "url" | "startTls" | "caCert">;

function tlsOptionsOf(d: TConnectable, host: string): ConnectionOptions {
  // The name checked against the certificate: a host name (an IP address is checked against its SAN as it is).
  return { ca: d.caCert ?? undefined, minVersion: "TLSv1.2", ...(isIP(host) ? {} : { servername: host }) };
}

/** A connected client, over TLS from its first bind on (ldaps:// connects at the bind, StartTLS here). */
async function connect(d: TConnectable): Promise<Client> {
  const endpoint = directoryEndpoint(d.url, d.startTls);
  if ("problem" in endpoint) throw new DirectoryUnavailable(`the directory's URL cannot be used: ${endpoint.problem}`, "connect", "url");
  const tlsOptions = tlsOptionsOf(d, endpoint.host);
  const client = new Client({ url: d.url, connectTimeout: CONNECT_TIMEOUT_MS, timeout: OPERATION_TIMEOUT_MS, ...(endpoint.secure ? { tlsOptions } : {}) });
  if (!endpoint.secure && d.startTls) {
    try {
      await client.startTLS(tlsOptions);
    } catch (e) {
      await close(client);
      // An LDAP answer to the StartTLS request: the server was reached and would not upgrade.
      throw unavailable(e, "connect", e instanceof ResultCodeError ? "starttls_refused" : undefined);
    }
  }
  return client;
}

async function close(client: Client): Promise<void> {
  await client.unbind().catch(() => undefined);
}

function unavailable(e: unknown, stage: TLdapStage, problem?: TLdapProblem): DirectoryUnavailable {
  if (e instanceof DirectoryUnavailable) return e;
  return new DirectoryUnavailable(e instanceof Error ? e.message : String(e), stage, problem ?? problemOf(e));
}

/**
 * Runs `work` on a connection bound as the service; the connection is closed after. A failure says
 * at which stage it happened: for ldaps:// the TLS handshake is made by the bind's connection, so a
 * failure there without an LDAP answer is still the connection's.
 */
export async function asService<T>(d: TConnectable & Pick<TDirectory, "bindDn" | "bindPassword">, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(d);
  try {
    await client.bind(d.bindDn, unsealFor("directory-secrets", d.bindPassword));
  } catch (e) {
    await close(client);
    throw unavailable(e, e instanceof ResultCodeError ? "bind" : "connect");
  }
  try {
    return await work(client);
  } catch (e) {
    throw unavailable(e, "work");
  } finally {
    await close(client);
  }
}

/** What a bind as a person came to: their password, a wrong one, or refused there for the account's state. */
export type TBindOutcome = "match" | "mismatch" | "refused_there";

/**
 * Active Directory says why it refused a bind in its diagnostic ("…AcceptSecurityContext error,
 * data 775, v4563"): 775 locked out, 533 disabled, 701 account expired, 532 password expired, 773
 * must change the password at next logon. Each is the account's state there, not a wrong password
 * (AD gives 532, 701 and 773 only after the right password), so it is said as such.
 */
const AD_REFUSED = /\bdata (775|533|701|532|773)\b/;
export const refusedThere = (diagnostic: string): boolean => AD_REFUSED.test(diagnostic);

/**
 * A bind as the entry at `dn` with `password`. An empty password is refused here, never sent: LDAP
 * takes an empty password as an anonymous bind, which succeeds.
 */
export async function bindAs(d: TConnectable, dn: string, password: string): Promise<TBindOutcome> {
  if (!password) return "mismatch";
  let client: Client | undefined;
  try {
    client = await connect(d);
    await client.bind(dn, password);
    return "match";
  } catch (e) {
    if (e instanceof InvalidCredentialsError) return refusedThere(e.message) ? "refused_there" : "mismatch";
    throw unavailable(e, e instanceof ResultCodeError ? "bind" : "connect");
  } finally {
    if (client) await close(client);
  }
}

/** Whether `password` is the password of the entry at `dn`. */
export const passwordMatches = async (d: TConnectable, dn: string, password: string): Promise<boolean> => (await bindAs(d, dn, password)) === "match";

/** A directory's words with any of the passwords in them taken out: they are shown and logged. */
function withoutSecrets(text: string, secrets: (string | undefined)[]): string {
  return secrets.reduce<string>((t, secret) => (secret ? t.split(secret).join("[password]") : t), text);
}

/** How a directory takes a new password: LDAP's Password Modify operation, or Active Directory's unicodePwd. */
export type TPasswordProtocol = "rfc3062" | "active_directory";

/** What a password write came to: done, the current password was wrong, or the directory refused the new one (its policy, its rights). */
export type TPasswordWrite = { ok: true } | { ok: false; reason: "wrong_current" | "refused"; message: string };

// BER definite length (X.690 §8.1.3): short form under 128, else the long form's byte count first.
function berLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const berField = (tag: number, value: Buffer) => Buffer.concat([Buffer.from([tag]), berLength(value.length), value]);

/**
 * RFC 3062's PasswdModifyRequestValue: SEQUENCE { userIdentity [0], oldPasswd [1], newPasswd [2] },
 * each an OCTET STRING and optional. The directory hashes the new password by its own settings
 * and applies its own password policy (OpenLDAP's ppolicy: quality, history, age).
 */
export function passwordModifyValue(dn: string, next: string, current?: string): Buffer {
  const fields = [berField(0x80, Buffer.from(dn, "utf8")), ...(current === undefined ? [] : [berField(0x81, Buffer.from(current, "utf8"))]), berField(0x82, Buffer.from(next, "utf8"))];
  return berField(0x30, Buffer.concat(fields));
}
const PASSWORD_MODIFY_OID = "1.3.6.1.4.1.4203.1.11.1";

/** Active Directory takes a password as unicodePwd: the password in double quotes, UTF-16LE. */
export const unicodePwd = (password: string): Buffer => Buffer.from(`"${password}"`, "utf16le");

function passwordChanges(protocol: TPasswordProtocol, next: string, current: string | undefined): Change[] {
  const value = (v: string) => new Attribute({ type: "unicodePwd", values: [unicodePwd(v)] });
  // A person's own change removes the old value and adds the new one (the directory checks the old);
  // a reset replaces it, which only an account with the right to reset may do.
  if (current !== undefined) return [new Change({ operation: "delete", modification: value(current) }), new Change({ operation: "add", modification: value(next) })];
  return [new Change({ operation: "replace", modification: value(next) })];
}

/**
 * Writes a new password for the entry at `dn`. With `current`, as the person: bound as the entry
 * with the current password, which the directory checks. Without, as the service (an
 * administrator's reset), which needs the directory to grant the service that right.
 */
export async function writePassword(
  d: TConnectable & Pick<TDirectory, "bindDn" | "bindPassword">,
  dn: string,
  next: string,
  protocol: TPasswordProtocol,
  current?: string,
): Promise<TPasswordWrite> {
  if (current === "" || next === "") return { ok: false, reason: current === "" ? "wrong_current" : "refused", message: "an empty password" };
  let client: Client | undefined;
  try {
    client = await connect(d);
    try {
      await client.bind(current === undefined ? d.bindDn : dn, current ?? unsealFor("directory-secrets", d.bindPassword));
    } catch (e) {
      if (e instanceof InvalidCredentialsError && current !== undefined) return { ok: false, reason: "wrong_current", message: "wrong current password" };
      // Any other refusal of the bind (a lockout, the service's own credentials) proved nothing and wrote nothing.
      throw unavailable(e, "bind");
    }
    if (protocol === "active_directory") await client.modify(dn, passwordChanges(protocol, next, current));
    else await client.exop(PASSWORD_MODIFY_OID, passwordModifyValue(dn, next, current));
    return { ok: true };
  } catch (e) {
    // The directory's own word on why (its policy's diagnostic), never the password.
    if (e instanceof ConstraintViolationError || e instanceof UnwillingToPerformError || e instanceof InsufficientAccessError) return { ok: false, reason: "refused", message: withoutSecrets(e.message.replace(/ Code: 0x[0-9a-f]+$/, ""), [next, current]) };
    throw unavailable(e, client ? "work" : "connect");
  } finally {
    if (client) await close(client);
  }
}

export type { Entry };
