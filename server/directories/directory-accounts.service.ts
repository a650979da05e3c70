import type { Entry } from "ldapts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { log } from "../log/logger.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { changeAttributes, createAccount, findAccount } from "../users/users.service.ts";
import { findAccountOfEntry, insertDirectoryAccount, touchDirectoryAccount, type TDirectory } from "./directories.repository.ts";
import { catalogAttributesOf, firstText } from "./directory-entries.ts";

/*
 * The account a directory entry is here, for sign-in and synchronisation alike: made from the entry
 * the first time (its login as sub when no account has it), its mapped attributes replaced by the
 * entry's afterwards, and locked or unlocked as the directory has the entry disabled.
 */

const problemsOf = (e: AppError) => (e.details.items ?? []).map((i) => `${i.pos}: ${i.desc}`);

/**
 * Creates the account of an entry. An attribute the catalog refuses, or an address another account
 * already has, is left out (and logged), never taken over: the account is made without it.
 */
async function createFromEntry(d: TDirectory, entry: Entry, externalId: string, attrs: Record<string, unknown>): Promise<string> {
  const login = firstText(entry, d.loginAttribute);
  const create = (values: Record<string, unknown>) =>
    inTransaction(async (tx) => {
      const subTaken = login === undefined || (await findAccount(login, tx)) !== null;
      const account = await createAccount({ sub: subTaken ? undefined : login, attrs: values, passwordHash: null }, { contactFlag: "vrf", allowed: null }, tx);
      await insertDirectoryAccount({ userId: account.id, directoryId: d.id, externalId, dn: entry.dn }, tx);
      return account.id;
    });
  let userId: string;
  try {
    userId = await create(attrs);
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "request.invalid_values") throw e;
    const refused = new Set((e.details.items ?? []).map((i) => i.pos));
    log.warn("directory attributes not taken", { directory: d.id, problems: problemsOf(e) });
    userId = await create(Object.fromEntries(Object.entries(attrs).filter(([k]) => !refused.has(k))));
  }
  await publishAccountChange(userId);
  return userId;
}

/** Replaces the account's mapped attributes with the entry's; whether anything changed. A value the catalog refuses is logged and left as it was. */
async function refreshAttributes(userId: string, attrs: Record<string, unknown>): Promise<boolean> {
  const account = await findAccount(userId);
  if (!account) return false;
  const changed = Object.entries(attrs).filter(([k, v]) => !sameJson(account.attrs[k], v));
  if (!changed.length) return false;
  try {
    await changeAttributes(account.instanceId, Object.fromEntries(changed), { contactFlag: "vrf", confirmUnverified: false, allowed: null, actor: { subject: userId } });
    return true;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    log.warn("directory attributes not taken", { sub: userId, problems: problemsOf(e) });
    return false;
  }
}

export type TEntryOutcome = { userId: string; created: boolean; updated: boolean };

/** The account of an entry, made or brought up to date; `seenAt` is when the entry was read (a run's start for a synchronisation). */
export async function accountOfEntry(d: TDirectory, entry: Entry, externalId: string, seenAt = new Date()): Promise<TEntryOutcome> {
  const attrs = catalogAttributesOf(entry, d.attributeMap);
  const known = await findAccountOfEntry(d.id, externalId);
  if (!known) return { userId: await createFromEntry(d, entry, externalId, attrs), created: true, updated: false };
  const updated = await refreshAttributes(known.userId, attrs);
  await touchDirectoryAccount(known.userId, entry.dn, seenAt);
  return { userId: known.userId, created: false, updated };
}

/**
 * Locks (or unlocks) an account because of its directory: the lock ends its sessions and tokens as
 * any lock does. Only an account this service locked for the directory is unlocked by it: one an
 * administrator locked here stays locked. Whether the account's state changed.
 */
export async function lockForDirectory(userId: string, dn: string, seenAt: Date, lock: boolean): Promise<boolean> {
  const account = await findAccount(userId);
  if (!account) return false;
  if (lock && !account.locked) await changeAttributes(account.instanceId, { locked: true }, { contactFlag: "vrf", confirmUnverified: false, allowed: null, actor: { subject: userId } });
  if (!lock && account.locked) await changeAttributes(account.instanceId, { locked: false }, { contactFlag: "vrf", confirmUnverified: false, allowed: null, actor: { subject: userId } });
  await touchDirectoryAccount(userId, dn, seenAt, lock);
  await publishAccountChange(userId);
  return lock !== account.locked;
}
