import { recordEvent } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { findActiveAdmin } from "../users/admin.service.ts";
import { AUTH_APPS } from "./apps.ts";

/**
 * Whether the person the service just signed in may have a console session. Anyone with an account
 * can pass the sign-in page; only an administrator gets a session, everyone else is sent back to
 * the console's sign-in page, which says why.
 */
export async function admitToConsole(sub: string): Promise<true | string> {
  if (sub && (await findActiveAdmin(sub))) return true;
  await recordEvent("console.access_denied", { subject: sub || undefined, clientId: AUTH_APPS.console.clientId }, { reason: "not_admin" });
  return `${getConfig().issuer}${AUTH_APPS.console.signIn}?error=not_admin`;
}
