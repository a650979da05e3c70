import type { Session } from "next-auth";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";

/**
 * Step-up for the portal's sensitive changes (password, second factor and generators, security
 * question, e-mail or phone), the way OIDC relying parties do it: the ID token's `auth_time`, kept in
 * the encrypted session cookie when it was validated, says when the person last proved who they are.
 * When that is older than IDP_REAUTH_MAX_AGE the change is refused, and the portal sends the browser
 * through the sign-in again with prompt=login, which asks for the password (and the second factor
 * when it is on) and brings a new auth_time. Nothing the browser sends counts: a session without a
 * known auth_time (made before this check existed) is treated as too old.
 */
export function isRecentSignIn(session: Session | null | undefined, now = Date.now()): boolean {
  const authTime = session?.idp?.authTime;
  return authTime !== undefined && now / 1000 - authTime <= getConfig().reauthMaxAge;
}

/** Refuses a sensitive change when the sign-in behind the session is not recent (portal.reauth_required, 403). */
export function requireRecentSignIn(session: Session | null | undefined, now = Date.now()): void {
  if (!isRecentSignIn(session, now)) throw new AppError("portal.reauth_required");
}

/** Whole seconds until sensitive changes need a new sign-in (0: now), for the portal to ask before the person types. */
export function secondsLeftForChanges(session: Session | null | undefined, now = Date.now()): number {
  if (!isRecentSignIn(session, now)) return 0;
  return Math.floor(session!.idp!.authTime! + getConfig().reauthMaxAge - now / 1000);
}
