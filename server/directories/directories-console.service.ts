import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { sealFor, unsealFor } from "../crypto/keys.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { inTransaction, type TTx } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { countDirectoryAccounts, deleteDirectoryRow, releaseOwnedAttrsOf, findAllDirectories, findDirectory, insertDirectory, updateDirectoryRow, type TDirectory } from "./directories.repository.ts";
import { testDirectoryConnection, type TConnectionTest } from "./directory-connection-test.ts";
import { changedSettings, checkDirectorySettings, directoryRowOf, directorySettingRefused, outdatesSyncMark, settingsOf } from "./directory-settings.ts";
import { isRunning } from "./directory-sync.repository.ts";
import { latestSyncRuns, syncDirectory } from "./directory-sync.service.ts";
import type { TDirectoryConsole, TDirectorySettings } from "./directory.schemas.ts";

/*
 * The console's face of directories: what each is, its latest runs, "sync now"; adding, editing,
 * testing and deleting one. The bind password never goes back to the browser (an empty one in the
 * input keeps the stored one), nor does the CA (the browser is told whether there is one).
 */

export type TDirectoryView = Omit<TDirectory, "bindPassword" | "caCert"> & { hasCaCert: boolean };

const toView = ({ bindPassword: _, caCert, ...d }: TDirectory): TDirectoryView => ({ ...d, hasCaCert: caCert !== null });

export async function listDirectories() {
  const out = [];
  for (const d of await findAllDirectories()) out.push({ ...toView(d), lastRun: (await latestSyncRuns(d.id, 1))[0] ?? null });
  return out;
}

export async function directoryRuns(id: string) {
  if (!(await findDirectory(id))) throw new AppError("directory.not_found");
  return latestSyncRuns(id, 20);
}

/** Starts a run in the background; the console follows it through directoryRuns. */
export async function syncNow(id: string, full: boolean, actor: TEventActor) {
  return syncDirectory(id, full ? "full" : undefined, actor);
}

/** One directory's settings, to edit: everything but the bind password and the CA, of which only its presence is said. */
export async function getDirectorySettings(id: string): Promise<TDirectorySettings & { id: string; hasCaCert: boolean }> {
  const d = await findDirectory(id);
  if (!d) throw new AppError("directory.not_found");
  return { id: d.id, ...settingsOf(d), hasCaCert: d.caCert !== null };
}

/**
 * The row the console's input makes, checked. What the input leaves out comes from the stored
 * directory: an empty password keeps its sealed one (a new directory must be given one), a CA left
 * out keeps its CA. The same password given again keeps its seal, so an unchanged form changes nothing.
 * The stored password goes only to the address it was given for, trusted as it was: with another
 * URL, CA or StartTLS setting it must be typed again, or a changed setting (saved or only tested)
 * would hand it to whatever server answers there.
 */
function rowOf(input: TDirectoryConsole, stored: TDirectory | null): TDirectory {
  const { id, bindPassword, caCert, ...settings } = input;
  const ca = caCert === undefined ? (stored?.caCert ?? null) : caCert;
  checkDirectorySettings(settings, ca);
  if (!bindPassword && !stored) directorySettingRefused("bindPassword", "the service account's password is required");
  // The address and how the server there is trusted: another CA, or StartTLS off, would let another server take it too.
  const sameTarget = stored !== null && stored.url === settings.url && stored.caCert === ca && stored.startTls === settings.startTls;
  if (!bindPassword && !sameTarget) directorySettingRefused("bindPassword", "type the password again: the stored one is sent only to the server, and with the trust, it was given for");
  const sealed = !bindPassword || (stored && unsealFor("directory-secrets", stored.bindPassword) === bindPassword) ? stored!.bindPassword : sealFor("directory-secrets", bindPassword);
  return directoryRowOf(id, settings, ca, sealed);
}

/** A write that lost a race to another (the same id added meanwhile) is the same 409 as any other taken id. */
async function inDirectoryTransaction<T>(write: (tx: TTx) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(write);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("directory.exists");
    throw e;
  }
}

/** Adds a directory: inserted, never upserted, so a taken id (even one taken a moment ago) is refused. */
export async function createDirectory(input: TDirectoryConsole, actor: TEventActor): Promise<TDirectoryView> {
  const row = rowOf(input, null);
  await inDirectoryTransaction((tx) => insertDirectory(row, tx));
  await recordEvent("directory.created", actor, { directory: row.id, url: row.url, mode: row.mode });
  return toView(row);
}

/** Saves a directory's settings as a whole; its id stays. The event names what changed, never a value. */
export async function updateDirectory(input: TDirectoryConsole, actor: TEventActor): Promise<TDirectoryView> {
  const stored = await findDirectory(input.id);
  if (!stored) throw new AppError("directory.not_found");
  const row = rowOf(input, stored);
  const changed = changedSettings(stored, row);
  if (!changed.length) return toView(stored);
  await inDirectoryTransaction(async (tx) => {
    if (!(await updateDirectoryRow(row, outdatesSyncMark(stored, row), tx))) throw new AppError("directory.not_found");
  });
  await recordEvent("directory.updated", actor, { directory: row.id, changed });
  return toView(row);
}

/**
 * Deletes a directory, its runs and its accounts' links to their entries; never the accounts. They
 * stay as accounts of this service without a password: their sessions, passkeys and second factors
 * go on, a password sign-in fails until a password is set for them here (an administrator, or
 * "Forgot password?" where it is on), and a directory added again later does not take them back. Refused while a
 * synchronisation runs: its writes would land on a directory that is gone.
 */
export async function deleteDirectory(id: string, actor: TEventActor): Promise<{ accounts: number }> {
  if (await isRunning(id)) throw new AppError("directory.sync_running");
  const accounts = await inTransaction(async (tx) => {
    const count = await countDirectoryAccounts(id, tx);
    await releaseOwnedAttrsOf(id, tx);
    if (!(await deleteDirectoryRow(id, tx))) throw new AppError("directory.not_found");
    return count;
  });
  // Their attributes are editable again: every process drops the accounts it holds.
  if (accounts) await publishAccountChange();
  await recordEvent("directory.deleted", actor, { directory: id, accounts });
  return { accounts };
}

/**
 * Tests settings as the form has them (the stored password and CA where the form keeps them, so a
 * directory being edited is tested without its password typed again). Settings that cannot be used
 * are refused as a save would refuse them; anything the directory answers is the test's result.
 */
export async function testConnection(input: TDirectoryConsole | { id: string }): Promise<TConnectionTest> {
  const stored = await findDirectory(input.id);
  if (!("url" in input)) {
    if (!stored) throw new AppError("directory.not_found");
    return testDirectoryConnection(stored);
  }
  return testDirectoryConnection(rowOf(input, stored));
}
