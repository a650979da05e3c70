import { log } from "../log/logger.ts";
import { findDirectory, findDirectoryAccount, type TDirectory } from "./directories.repository.ts";
import { noteDirectoryState } from "./directory-health.service.ts";
import { DirectoryUnavailable, writePassword, type TPasswordWrite } from "./ldap-client.ts";

/*
 * Password changes of a directory's accounts: the directory keeps their password, so a change made
 * through this service is written there, or refused, as the directory's settings say. Nothing of
 * the password is kept here.
 */

export type TPasswordKeeper = { directory: TDirectory; dn: string };

/** The directory that keeps the account's password, with its entry's DN there; null for a local account. */
export async function passwordKeeperOf(userId: string): Promise<TPasswordKeeper | null> {
  const link = await findDirectoryAccount(userId);
  if (!link) return null;
  const directory = await findDirectory(link.directoryId);
  // A directory removed since: its accounts have no password anywhere, and none can be set for them here.
  return directory ? { directory, dn: link.dn } : null;
}

/** Whether the directory lets this service write the password: the person's own change (`self`), or also a reset. */
export function mayWritePassword(d: TDirectory, byThePerson: boolean): boolean {
  return d.enabled && (d.passwordChange === "self_and_reset" || (d.passwordChange === "self" && byThePerson));
}

/**
 * Writes the new password into the directory: as the person when `current` is given (the directory
 * checks it), else with the service's bind. A directory that cannot be reached throws
 * DirectoryUnavailable, and is reported degraded as a sign-in would.
 */
export async function writeDirectoryPassword(k: TPasswordKeeper, next: string, current?: string): Promise<TPasswordWrite> {
  try {
    const result = await writePassword(k.directory, k.dn, next, k.directory.passwordProtocol, current);
    noteDirectoryState(k.directory.id, "ok");
    if (!result.ok && result.reason === "refused") log.info("directory refused a password", { directory: k.directory.id, reason: result.message });
    return result;
  } catch (e) {
    if (e instanceof DirectoryUnavailable) {
      log.warn("directory unavailable", { directory: k.directory.id, reason: e.message });
      noteDirectoryState(k.directory.id, "degraded");
    }
    throw e;
  }
}
