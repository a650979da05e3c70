import { getConfig } from "../config/config.ts";
import type { THasHeaders } from "./exchange.ts";

/** Cookies of a request by name; a malformed pair is skipped, the first of a repeated name wins. */
export function readCookies(req: THasHeaders): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // a value that is not valid percent-encoding is no cookie of ours
    }
  }
  return out;
}

/**
 * The service's own cookies: httpOnly, SameSite=Lax (sent on a top-level navigation back from an
 * application, never on a cross-site POST), scoped to the context path, Secure under https. Under
 * https the names carry `__Secure-`, so no plain-http page of the same host can set them.
 */
export function cookieName(base: string): string {
  return getConfig().issuer.startsWith("https://") ? `__Secure-${base}` : base;
}

export function serializeCookie(base: string, value: string, opts: { expires?: Date } = {}): string {
  const { issuer, contextPath } = getConfig();
  const parts = [`${cookieName(base)}=${encodeURIComponent(value)}`, `Path=${contextPath || "/"}`, "HttpOnly", "SameSite=Lax"];
  if (issuer.startsWith("https://")) parts.push("Secure");
  if (opts.expires) parts.push(`Expires=${opts.expires.toUTCString()}`);
  return parts.join("; ");
}

export function clearCookie(base: string): string {
  return serializeCookie(base, "", { expires: new Date(0) });
}

export function readCookie(req: THasHeaders, base: string): string | undefined {
  return readCookies(req).get(cookieName(base));
}
