import { findActiveAccount } from "../users/account-snapshots.ts";
import { tellAccountHolder, type TNotice } from "./account-notices.ts";

/**
 * tellAccountHolder for callers that know the account by id. Kept apart from account-notices.ts so
 * that contacts, which the account reads depend on, can tell people without an import cycle.
 */
export async function tellAccountHolderOf(userId: string, notice: TNotice): Promise<void> {
  const account = await findActiveAccount(userId);
  if (account) await tellAccountHolder(account, notice);
}
