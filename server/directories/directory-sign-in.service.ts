import type { Client, Entry } from "ldapts";
import type { TEventActor } from "../audit/audit.service.ts";
import { log } from "../log/logger.ts";
import { findAllDirectories, findDirectory, findDirectoryAccount, type TDirectory } from "./directories.repository.ts";
import { accountOfEntry } from "./directory-accounts.service.ts";
import { syncGroupsAtSignIn } from "./directory-groups.service.ts";
import { attributesToRead, binaryAttributes, entryFilter, stableIdOf } from "./directory-entries.ts";
import { noteDirectoryState } from "./directory-health.service.ts";
import { asService, bindAs, DirectoryUnavailable } from "./ldap-client.ts";

/*
 * Sign-in of the people of a directory: their password is checked by a bind as their entry, never
 * stored. An account that is an entry is checked there; an identifier no account has is looked up
 * in the on-demand directories, and the account is made from the entry at its first sign-in. The
 * second factor, passkeys and account state apply afterwards as to any account.
 */

export type TDirectoryVerdict =
  | { kind: "ok"; userId: string; directoryId: string; created: boolean }
  /** A wrong password, or an entry gone from the directory: told apart from nothing. */
  | { kind: "wrong_password"; userId?: string; directoryId: string }
  /** Said only after the right password. */
  | { kind: "disabled"; userId?: string; directoryId: string }
  | { kind: "unavailable"; userId?: string; directoryId: string }
  | { kind: "not_found" };

type TFound = { entry: Entry; externalId: string; disabled: boolean };

/** One entry of the user filter with `attribute` = `value`, and whether the directory has it disabled. */
export async function findEntry(client: Client, d: TDirectory, attribute: string, value: string): Promise<TFound | undefined> {
  const { searchEntries } = await client.search(d.baseDn, { scope: "sub", filter: entryFilter(d, attribute, value), attributes: attributesToRead(d), explicitBufferAttributes: binaryAttributes(d), sizeLimit: 2 });
  // Two entries for one login is a directory's mistake: nobody is signed in as either, and the
  // administrators are told (the person only sees a refused sign-in).
  if (searchEntries.length > 1) log.warn("directory has two entries for one login", { directory: d.id, attribute, dns: searchEntries.map((e) => e.dn) });
  if (searchEntries.length !== 1) return undefined;
  const entry = searchEntries[0]!;
  const externalId = stableIdOf(entry, d.idAttribute);
  if (!externalId) return undefined;
  let disabled = false;
  if (d.disabledFilter) {
    const again = await client.search(entry.dn, { scope: "base", filter: d.disabledFilter, attributes: ["1.1"] });
    disabled = again.searchEntries.length > 0;
  }
  return { entry, externalId, disabled };
}

/** Checks the password against the entry found, then gives the account it is here. */
async function signInAsEntry(d: TDirectory, found: TFound, password: string, actor: TEventActor, userId?: string): Promise<TDirectoryVerdict> {
  noteDirectoryState(d.id, "ok");
  const bound = await bindAs(d, found.entry.dn, password);
  // A directory that locked an entry (too many failures, an administrator) refuses every bind as it:
  // the disabled filter (or Active Directory's own diagnostic) is what tells that apart from a wrong
  // password, so it is said either way.
  if (found.disabled || bound === "refused_there") return { kind: "disabled", userId, directoryId: d.id };
  if (bound === "mismatch") return { kind: "wrong_password", userId, directoryId: d.id };
  const account = await accountOfEntry(d, found.entry, found.externalId);
  // A synchronised directory's groups follow its runs; an on-demand one's, its people's sign-ins.
  if (d.mode === "on_demand") await syncGroupsAtSignIn(d, found.entry.dn, account.userId, actor);
  if (account.created) log.info("directory account created", { directory: d.id, sub: account.userId, client: actor.clientId });
  return { kind: "ok", userId: account.userId, directoryId: d.id, created: account.created };
}

/** The password of an account that is a directory's entry, checked there; null when the account is not one. */
export async function checkDirectoryAccount(userId: string, password: string, actor: TEventActor): Promise<TDirectoryVerdict | null> {
  const link = await findDirectoryAccount(userId);
  if (!link) return null;
  const d = await findDirectory(link.directoryId);
  if (!d || !d.enabled) return { kind: "unavailable", userId, directoryId: link.directoryId };
  try {
    const found = await asService(d, (client) => findEntry(client, d, d.idAttribute, link.externalId));
    if (!found) return { kind: "wrong_password", userId, directoryId: d.id };
    return await signInAsEntry(d, found, password, actor, userId);
  } catch (e) {
    if (e instanceof DirectoryUnavailable) return unavailableAt(d, e, userId);
    throw e;
  }
}

function unavailableAt(d: TDirectory, e: DirectoryUnavailable, userId?: string): TDirectoryVerdict {
  log.warn("directory unavailable", { directory: d.id, reason: e.message });
  noteDirectoryState(d.id, "degraded");
  return { kind: "unavailable", userId, directoryId: d.id };
}

/**
 * An identifier no account has, looked up in each enabled on-demand directory in turn. When one
 * could not be asked and no other knew the login, the answer is "unavailable" (for any login alike,
 * so it tells nobody whether the login exists).
 */
export async function signInFromDirectories(login: string, password: string, actor: TEventActor): Promise<TDirectoryVerdict> {
  let down: TDirectoryVerdict | undefined;
  for (const d of await findAllDirectories()) {
    if (!d.enabled || d.mode !== "on_demand") continue;
    try {
      const found = await asService(d, (client) => findEntry(client, d, d.loginAttribute, login));
      if (found) return await signInAsEntry(d, found, password, actor);
    } catch (e) {
      if (!(e instanceof DirectoryUnavailable)) throw e;
      down ??= unavailableAt(d, e);
    }
  }
  return down ?? { kind: "not_found" };
}
