import type { Entry } from "ldapts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import { log } from "../log/logger.ts";
import { publishAccountChange } from "../users/account-cache.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { changeAttributes, createAccount, createAccounts, findAccount, findAccounts } from "../users/users.service.ts";
import { findAccountOfEntry, findAccountsOfEntries, insertDirectoryAccount, insertDirectoryAccounts, touchDirectoryAccount, touchDirectoryAccounts, type TDirectory, type TDirectoryAccount } from "./directories.repository.ts";
import { catalogAttributesOf, firstText, ownedAttrsOf } from "./directory-entries.ts";

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
      const account = await createAccount({ sub: subTaken ? undefined : login, attrs: values, passwordHash: null, ownedAttrs: ownedAttrsOf(d.attributeMap) }, { contactFlag: "vrf", allowed: null }, tx);
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

/**
 * Replaces the account's mapped attributes with the entry's (one the entry no longer has is removed,
 * unless the catalog requires it) and records them as the directory's to keep; whether anything
 * changed. A value the catalog refuses is logged and left as it was.
 */
async function refreshAttributes(d: TDirectory, userId: string, attrs: Record<string, unknown>, read?: Awaited<ReturnType<typeof findAccount>>): Promise<boolean> {
  const account = read === undefined ? await findAccount(userId) : read;
  if (!account) return false;
  const owned = ownedAttrsOf(d.attributeMap);
  const catalog = await getCatalog();
  const gone = owned.filter((k) => !(k in attrs) && account.attrs[k] !== undefined && !catalog.byName.get(k)?.required);
  const changed = [...Object.entries(attrs).filter(([k, v]) => !sameJson(account.attrs[k], v)), ...gone.map((k) => [k, null] as const)];
  if (!changed.length && sameJson(owned, account.ownedAttrs)) return false;
  try {
    await changeAttributes(account.instanceId, Object.fromEntries(changed), { contactFlag: "vrf", confirmUnverified: false, allowed: null, actor: { subject: userId }, owner: { ownedAttrs: owned } });
    return changed.length > 0;
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
  const updated = await refreshAttributes(d, known.userId, attrs);
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
  // changeAttributes told the caches of a lock change; the entry's own row is in none of them.
  await touchDirectoryAccount(userId, dn, seenAt, lock);
  return lock !== account.locked;
}

export type TPageItem = { entry: Entry; externalId: string };
export type TPageOutcome = { item: TPageItem; userId: string; created: boolean; updated: boolean; link: TDirectoryAccount | undefined } | { item: TPageItem; error: unknown };

/**
 * A page of a synchronisation's entries, with its writes batched: one query finds the accounts the
 * entries already are, the new ones are made in one transaction (should one of them be refused, the
 * page falls back to one entry at a time, each then made or refused on its own), the known ones are
 * read in one query, written only where an attribute changed, and marked seen in one statement.
 */
export async function accountsOfPage(d: TDirectory, items: TPageItem[], seenAt: Date): Promise<TPageOutcome[]> {
  const links = await findAccountsOfEntries(d.id, items.map((i) => i.externalId));
  const fresh = items.filter((i) => !links.has(i.externalId));
  const known = items.filter((i) => links.has(i.externalId));
  const out: TPageOutcome[] = [];
  if (fresh.length) out.push(...(await createPage(d, fresh)));
  const accounts = new Map((await findAccounts(known.map((i) => links.get(i.externalId)!.userId))).map((a) => [a.id, a]));
  for (const item of known) {
    const link = links.get(item.externalId)!;
    try {
      const updated = await refreshAttributes(d, link.userId, catalogAttributesOf(item.entry, d.attributeMap), accounts.get(link.userId) ?? null);
      // A moved entry: its new DN is where the next bind goes.
      if (link.dn !== item.entry.dn) await touchDirectoryAccount(link.userId, item.entry.dn, seenAt);
      out.push({ item, userId: link.userId, created: false, updated, link });
    } catch (error) {
      out.push({ item, error });
    }
  }
  if (known.length) await touchDirectoryAccounts(known.map((i) => links.get(i.externalId)!.userId), seenAt);
  return out;
}

/**
 * The new entries of a page, made in one transaction with two statements for the accounts: each with
 * its login as sub, or a generated one where that is taken; an attribute another account holds (or
 * the catalog refuses) is left out of that entry alone, as for one entry at a time.
 */
async function createPage(d: TDirectory, fresh: TPageItem[]): Promise<TPageOutcome[]> {
  const catalog = await getCatalog();
  const ownedAttrs = ownedAttrsOf(d.attributeMap);
  const made = await inTransaction(async (tx) => {
    type TTry = { item: TPageItem; sub?: string; attrs: Record<string, unknown>; round: number };
    let pending: TTry[] = fresh.map((item) => ({ item, sub: firstText(item.entry, d.loginAttribute), attrs: catalogAttributesOf(item.entry, d.attributeMap), round: 0 }));
    const out: TPageOutcome[] = [];
    // Three rounds at most: as given; without a taken sub; without the refused attributes.
    while (pending.length) {
      const outcomes = await createAccounts(pending.map((p) => ({ sub: p.sub, attrs: p.attrs, passwordHash: null, ownedAttrs })), { contactFlag: "vrf", allowed: null, catalog }, tx);
      const again: TTry[] = [];
      outcomes.forEach((o, i) => {
        const p = pending[i]!;
        if (o.ok) out.push({ item: p.item, userId: o.account.id, created: true, updated: false, link: undefined });
        else if (p.round >= 2) out.push({ item: p.item, error: new AppError("request.invalid_values", { items: o.items }) });
        else {
          const refused = new Set(o.items.map((it) => it.pos));
          if (!refused.has("sub")) log.warn("directory attributes not taken", { directory: d.id, problems: o.items.map((it) => `${it.pos}: ${it.desc}`) });
          again.push({ item: p.item, sub: refused.has("sub") ? undefined : p.sub, attrs: Object.fromEntries(Object.entries(p.attrs).filter(([k]) => !refused.has(k))), round: p.round + 1 });
        }
      });
      pending = again;
    }
    await insertDirectoryAccounts(out.flatMap((o) => ("error" in o ? [] : [{ userId: o.userId, directoryId: d.id, externalId: o.item.externalId, dn: o.item.entry.dn }])), tx);
    return out;
  });
  await publishAccountChange(...made.flatMap((o) => ("error" in o ? [] : [o.userId])));
  return made;
}
