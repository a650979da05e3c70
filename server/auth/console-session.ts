import { getServerSession, type Session } from "next-auth";
import { cache } from "react";
import { findActiveAdmin, type TConsoleUser } from "../users/admin.service.ts";
import { getAuthOptions } from "./auth-options.ts";

/**
 * The next-auth session of the current request (server components and route handlers only).
 * Memoised per render, since the console layout and the page's own layout both ask.
 */
export const readConsoleSession = cache((): Promise<Session | null> => getServerSession(getAuthOptions()));

/** The administrator behind a session, as the database sees them now (see findActiveAdmin). */
export async function consoleUserOf(session: Session | null): Promise<TConsoleUser | null> {
  return session?.user?.id ? findActiveAdmin(session.user.id) : null;
}
