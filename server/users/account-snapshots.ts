import { WAITING_CHANGE } from "../contacts/contact-change-state.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import type { TConfirmationRow } from "../contacts/confirmation-row.ts";
import type { TAccount } from "./account.ts";
import { accountCache } from "./account-cache.ts";
import { findAccountAwaiting } from "./users.repository.ts";

/**
 * An account with the contact changes it awaits, as reads show it, cached as one entry and dropped
 * in every process when the account changes (see account-cache.ts). Bearer reads (attributes,
 * userinfo) and the token grants' "is it still active" check all come here, so none of them costs a
 * query in steady state.
 */
export type TSnapshot = { account: TAccount; waiting: TConfirmationRow[] } | null;
const snapshots = accountCache<TSnapshot>();

/** From memory without a Promise when cached (maybe-promise.ts). */
export function accountSnapshot(sub: string): TMaybePromise<TSnapshot> {
  return snapshots.read(sub, loadSnapshot);
}
const loadSnapshot = (id: string) => findAccountAwaiting(id, WAITING_CHANGE);

/** The account if it exists and is not locked: whom tokens may still be issued to and serve. */
export async function findActiveAccount(subject: string): Promise<TAccount | null> {
  const account = (await accountSnapshot(subject))?.account;
  return account && !account.locked ? account : null;
}
