import { getServerSession, type Session } from "next-auth";
import { cache } from "react";
import { passkeyEnrolmentRequired } from "../passkeys/passkey-policy.service.ts";
import { displayNameOf } from "../users/account.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { findActiveAdmin, type TConsoleUser } from "../users/admin.service.ts";
import { appAuthOptions, isCutOffSession } from "./auth-options.ts";

/**
 * The console's next-auth session of the current request (server components and route handlers only).
 * Memoised per render, since the console layout and the page's own layout both ask.
 */
export const readConsoleSession = cache((): Promise<Session | null> => getServerSession(appAuthOptions("console")));

/**
 * The administrator behind a session, as the database sees them now (see findActiveAdmin): a lock or
 * a removed role ends access at once, and so do "sign out everywhere" and the removal of the device
 * (token cutoffs, held in process).
 */
export async function consoleUserOf(session: Session | null): Promise<TConsoleUser | null> {
  const sub = session?.user?.id;
  if (!sub) return null;
  const admin = await findActiveAdmin(sub);
  return admin && !(await isCutOffSession(admin.id, session)) ? admin : null;
}

/**
 * Whether the passkey policy sends this administrator to the portal to enrol a passkey before the
 * console opens. The portal is outside the console, so the page they enrol on stays open to them.
 */
export function consoleNeedsPasskey(admin: Pick<TConsoleUser, "id">): Promise<boolean> {
  return passkeyEnrolmentRequired(admin.id);
}

/** The signed-in administrator's name for the console's header (their account's given and family name), or null. */
export async function consoleUserName(admin: Pick<TConsoleUser, "id">): Promise<string | null> {
  const account = await findActiveAccount(admin.id);
  return account && displayNameOf(account);
}
