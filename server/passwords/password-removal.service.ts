import type { TTx } from "../db/index.ts";
import { clearPasswordHash, lockPasswordHash } from "./passwords.repository.ts";

// Taking a password away, for an account that signs in with a passkey from now on (the passkeys
// capability decides when that is allowed). A file of its own: it needs none of the policy and
// history machinery of a change.

/** Whether the account has a password, read under the caller's row lock. */
export async function hasPassword(userId: string, tx: TTx): Promise<boolean> {
  return !!(await lockPasswordHash(userId, tx))?.hash;
}

/** Removes the password in the caller's transaction (which holds the account's row lock); false when there was none. */
export async function removePassword(userId: string, tx: TTx): Promise<boolean> {
  if (!(await hasPassword(userId, tx))) return false;
  await clearPasswordHash(userId, tx);
  return true;
}
