import type { Session } from "next-auth";

/**
 * The portal's next-auth session as the JWT callback leaves it: the IdP session (sid) behind it, and
 * a sign-in `signedInSecondsAgo` seconds ago (auth_time), recent enough for sensitive changes unless
 * a test says otherwise.
 */
export function portalSessionOf(sub: string, sid: string, signedInSecondsAgo = 0): Session {
  const now = Math.floor(Date.now() / 1000);
  return { user: { id: sub }, idp: { sid, iat: now, authTime: now - signedInSecondsAgo, amr: ["pwd"] }, expires: "2999-01-01T00:00:00Z" };
}
