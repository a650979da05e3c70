/*
 * Where a directory may be reached: over TLS (ldaps://, or ldap:// upgraded with StartTLS), since
 * people's passwords travel in the bind. Plain ldap:// only to a loopback address (a directory on
 * the same machine, or a test's).
 */

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

export type TDirectoryEndpoint = { secure: boolean; host: string; port: number };

/** The URL's endpoint, or why it cannot be used. */
export function directoryEndpoint(url: string, startTls: boolean): TDirectoryEndpoint | { problem: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: "not a URL" };
  }
  if (u.protocol !== "ldaps:" && u.protocol !== "ldap:") return { problem: "must be ldaps:// or ldap://" };
  if (!u.hostname) return { problem: "names no host" };
  if (u.username || u.password || (u.pathname && u.pathname !== "/") || u.search || u.hash) return { problem: "only the scheme, host and port: the base DN and the bind are settings of their own" };
  const secure = u.protocol === "ldaps:";
  if (!secure && !startTls && !LOOPBACK.has(u.hostname)) return { problem: "plain ldap:// (without StartTLS) only to a loopback address: people's passwords travel in the bind" };
  return { secure, host: u.hostname.replace(/^\[|\]$/g, ""), port: u.port ? Number(u.port) : secure ? 636 : 389 };
}
