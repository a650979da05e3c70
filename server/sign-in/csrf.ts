import { createHmac } from "node:crypto";
import { newOpaqueToken, sameSecret } from "../crypto/opaque-token.ts";

/** Cookie (see server/http/cookies.ts) holding this browser's CSRF secret. */
export const CSRF_COOKIE = "idp_csrf";

/** The browser's CSRF cookie when it looks like one of ours; else a new value to set. */
export function csrfCookieFor(current: string | undefined): { cookie: string; isNew: boolean } {
  return current && /^[A-Za-z0-9_-]{43}$/.test(current) ? { cookie: current, isNew: false } : { cookie: newOpaqueToken(), isNew: true };
}

/**
 * A form's CSRF field: an HMAC of what the form acts on (a flow, a session) under the browser's
 * cookie. It ties the form to that and to the browser, and never puts the cookie into the page. A
 * cross-site POST carries no cookie (SameSite=Lax), so it cannot match.
 */
export function csrfField(cookie: string, binding: string): string {
  return createHmac("sha256", cookie).update(binding).digest("base64url");
}

export function csrfMatches(cookie: string | undefined, binding: string, field: string | undefined): boolean {
  return !!cookie && !!field && sameSecret(csrfField(cookie, binding), field);
}
