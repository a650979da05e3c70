import { log } from "../log/logger.ts";
import { findDirectory, findDirectoryAccount, type TDirectory, type TDirectoryAccount } from "./directories.repository.ts";
import { noteDirectoryState } from "./directory-health.service.ts";
import { findEntry } from "./directory-sign-in.service.ts";
import { asService, DirectoryUnavailable, writePassword, type TPasswordWrite } from "./ldap-client.ts";

/*
 * Password changes of a directory's accounts: the directory keeps their password, so a change made
 * through this service is written there, or refused, as the directory's settings say. Nothing of
 * the password is kept here.
 */

export type TPasswordKeeper = { directory: TDirectory; link: TDirectoryAccount };

/** The directory that keeps the account's password, with the account's link to its entry; null for a local account. */
export async function passwordKeeperOf(userId: string): Promise<TPasswordKeeper | null> {
  const link = await findDirectoryAccount(userId);
  if (!link) return null;
  const directory = await findDirectory(link.directoryId);
  // A directory removed since: its accounts have no password anywhere, and none can be set for them here.
  return directory ? { directory, link } : null;
}

/**
 * Whether the account's password is its directory's: the sign-in then never asks for a new one
 * (the directory has its own expiry and "change at next logon"), as no change made there would
 * be written.
 */
export async function passwordInDirectory(userId: string): Promise<boolean> {
  return (await findDirectoryAccount(userId)) !== null;
}

/**
 * The DN of the account's entry now, found again by its stable id: the DN stored is where the entry
 * was when last seen, and may since be another person's (an entry deleted, its login given to a
 * newcomer). Null when the entry is gone or disabled there: no password is written for it.
 */
export async function entryDnOf(k: TPasswordKeeper): Promise<string | null> {
  const d = k.directory;
  try {
    const found = await asService(d, (client) => findEntry(client, d, d.idAttribute, k.link.externalId));
    return found && !found.disabled ? found.entry.dn : null;
  } catch (e) {
    if (e instanceof DirectoryUnavailable) noteUnavailable(d, e);
    throw e;
  }
}

function noteUnavailable(d: TDirectory, e: DirectoryUnavailable): void {
  log.warn("directory unavailable", { directory: d.id, reason: e.message });
  noteDirectoryState(d.id, "degraded");
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
export async function writeDirectoryPassword(k: TPasswordKeeper, dn: string, next: string, current?: string): Promise<TPasswordWrite> {
  try {
    const result = await writePassword(k.directory, dn, next, k.directory.passwordProtocol, current);
    noteDirectoryState(k.directory.id, "ok");
    if (!result.ok && result.reason === "refused") log.info("directory refused a password", { directory: k.directory.id, reason: result.message });
    return result;
  } catch (e) {
    if (e instanceof DirectoryUnavailable) noteUnavailable(k.directory, e);
    throw e;
  }
}
