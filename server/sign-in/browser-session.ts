import { readCookie, serializeCookie } from "../http/cookies.ts";
import type { TPendingEvent } from "../audit/audit.service.ts";
import { DEVICE_COOKIE, DEVICE_KEY_TTL_MS, SESSION_COOKIE, startSession, type TSession } from "../sessions/sessions.service.ts";
import type { TIncoming } from "../http/exchange.ts";

/**
 * Starts this browser's session for a user who has just proved who they are (a password on the
 * sign-in page, a finished sign-up), replacing the session it had; returns the cookies to set.
 */
export async function startBrowserSession(
  req: TIncoming,
  input: { userId: string; amr: string[]; authTime?: Date; ip?: string; userAgent?: string; events?: TPendingEvent[] },
): Promise<{ session: TSession; cookies: string[] }> {
  const started = await startSession({ ...input, deviceKey: readCookie(req, DEVICE_COOKIE), replacesToken: readCookie(req, SESSION_COOKIE) });
  return {
    session: started.session,
    cookies: [
      serializeCookie(SESSION_COOKIE, started.token, { expires: started.session.expiresAt }),
      serializeCookie(DEVICE_COOKIE, started.deviceKey, { expires: new Date(Date.now() + DEVICE_KEY_TTL_MS) }),
    ],
  };
}
