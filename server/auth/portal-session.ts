import { getServerSession, type Session } from "next-auth";
import { cache } from "react";
import { displayNameOf } from "../users/account.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { appAuthOptions, isCutOffSession } from "./auth-options.ts";

/** The portal's next-auth session of the current request; memoised per render (layout and page both ask). */
export const readPortalSession = cache((): Promise<Session | null> => getServerSession(appAuthOptions("portal")));

export type TPortalUser = { sub: string; name: string | null };

/**
 * The person behind a portal session, as the database sees them now. The session is a signed cookie
 * that outlives a lock, a deletion, "sign out everywhere" or the removal of this device; each of those
 * ends portal access at once (the cutoffs are held in process, so the check costs no query when
 * nothing changed).
 */
export async function portalUserOf(session: Session | null): Promise<TPortalUser | null> {
  const sub = session?.user?.id;
  if (!sub) return null;
  const account = await findActiveAccount(sub);
  if (!account || (await isCutOffSession(account.id, session))) return null;
  return { sub: account.id, name: displayNameOf(account) };
}
