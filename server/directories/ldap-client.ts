import { Client, InvalidCredentialsError, type Entry } from "ldapts";
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

/** The directory cannot be reached or used (down, TLS refused, the service's bind refused, a timeout). */
export class DirectoryUnavailable extends Error {
  override name = "DirectoryUnavailable";
}

export type TConnectable = Pick<TDirectory, "id" | "url" | "startTls" | "caCert">;

function tlsOptionsOf(d: TConnectable, host: string): ConnectionOptions {
  // The name checked against the certificate: a host name (an IP address is checked against its SAN as it is).
  return { ca: d.caCert ?? undefined, minVersion: "TLSv1.2", ...(isIP(host) ? {} : { servername: host }) };
}

/** A connected client, over TLS from its first bind on. */
async function connect(d: TConnectable): Promise<Client> {
  const endpoint = directoryEndpoint(d.url, d.startTls);
  if ("problem" in endpoint) throw new DirectoryUnavailable(`the directory's URL cannot be used: ${endpoint.problem}`);
  const tlsOptions = tlsOptionsOf(d, endpoint.host);
  const client = new Client({ url: d.url, connectTimeout: CONNECT_TIMEOUT_MS, timeout: OPERATION_TIMEOUT_MS, ...(endpoint.secure ? { tlsOptions } : {}) });
  if (!endpoint.secure && d.startTls) await client.startTLS(tlsOptions);
  return client;
}

async function close(client: Client): Promise<void> {
  await client.unbind().catch(() => undefined);
}

const unavailable = (e: unknown): DirectoryUnavailable => (e instanceof DirectoryUnavailable ? e : new DirectoryUnavailable(e instanceof Error ? e.message : String(e)));

/** Runs `work` on a connection bound as the service; the connection is closed after. */
export async function asService<T>(d: TConnectable & Pick<TDirectory, "bindDn" | "bindPassword">, work: (client: Client) => Promise<T>): Promise<T> {
  let client: Client | undefined;
  try {
    client = await connect(d);
    await client.bind(d.bindDn, unsealFor("directory-secrets", d.bindPassword));
  } catch (e) {
    if (client) await close(client);
    throw unavailable(e);
  }
  try {
    return await work(client);
  } catch (e) {
    throw unavailable(e);
  } finally {
    await close(client);
  }
}

/**
 * Whether `password` is the password of the entry at `dn`: a bind as that entry. An empty password
 * is refused here, never sent: LDAP takes an empty password as an anonymous bind, which succeeds.
 */
export async function passwordMatches(d: TConnectable, dn: string, password: string): Promise<boolean> {
  if (!password) return false;
  let client: Client | undefined;
  try {
    client = await connect(d);
    await client.bind(dn, password);
    return true;
  } catch (e) {
    if (e instanceof InvalidCredentialsError) return false;
    throw unavailable(e);
  } finally {
    if (client) await close(client);
  }
}

export type { Entry };
