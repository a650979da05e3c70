import { notePasswordNeedsSecondFactor, readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { hashSecret, verifySecret } from "../crypto/password-hash.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import type { TAccount } from "../users/account.ts";
import { findPasswordHash } from "../users/users.service.ts";
import { passwordKeeperOf } from "../directories/directory-password.service.ts";
import { changeDirectoryPassword } from "./directory-password-change.ts";
import { generatePassword } from "./generate.ts";
import { announcePasswordChange, phoneOf, refuse, withCountedCurrent, type TChangeMode, type TPasswordChange } from "./password-change-steps.ts";
import { deleteDevicesOf, findPasswordHistory, lockPasswordHash, writePassword, type THistoryRow } from "./passwords.repository.ts";
import { getPasswordPolicy } from "./policy-store.ts";
import { checkAge, checkPassword, meetsSingleFactorLength, normalizeForPolicy, violationItem, type TPasswordPolicy, type TPolicyViolation } from "./policy.ts";

/**
 * eq_current and in_password_history: argon2 work, done only once the cheap rules passed. In user
 * mode the current password is known in plain text (and was just verified): no hash to compute.
 */
async function checkReuse(password: string, current: string | undefined, hash: string | null, history: THistoryRow[], policy: TPasswordPolicy): Promise<TPolicyViolation[]> {
  const same = current !== undefined ? normalizeForPolicy(current) === normalizeForPolicy(password) : hash !== null && (await verifySecret(hash, password));
  if (same) return [{ rule: "eq_current", params: {} }];
  const previous = history.filter((h) => h.hash !== hash).slice(0, policy.historySize);
  for (const h of previous) if (await verifySecret(h.hash, password)) return [{ rule: "in_password_history", params: {} }];
  return [];
}

/** The new password after every rule of the policy, or a generated one. */
async function chooseNewPassword(input: TPasswordChange, account: TAccount, mode: TChangeMode["mode"], hash: string | null, history: THistoryRow[], policy: TPasswordPolicy) {
  if (input.password === undefined) return generatePassword(policy);
  // An administrator's reset is not held back by the minimum age, and has no current password to compare characters with.
  const user = mode === "user";
  const holder = { secondFactor: (await readAuthModes(account.id)).secondFactor, current: user ? input.current : undefined };
  const cheap = [...(user ? checkAge(history[0]?.setAt ?? null, policy) : []), ...checkPassword(input.password, policy, holder)];
  if (cheap.length) refuse(cheap, input.locale);
  const reuse = await checkReuse(input.password, user ? input.current : undefined, hash, history, policy);
  if (reuse.length) refuse(reuse, input.locale);
  return input.password;
}

/**
 * Changes the account's password. Checks (current password in user mode, policy, phone) come first
 * and change nothing; then, in one transaction that holds the account's row: the hash, the history,
 * the remembered devices (but `keepDevice`) and the SMS. After it: every session and token issued
 * before ends (but those of `keepDevice`). Two changes racing from the same state: the later one
 * finds the password moved under it and is refused with id_store, so the history never mixes them.
 */
export type { TChangeMode, TPasswordChange };

export async function changePassword(account: TAccount, input: TPasswordChange, how: TChangeMode): Promise<void> {
  // A directory's account: its password is the directory's to keep, written there or refused.
  const keeper = await passwordKeeperOf(account.id);
  if (keeper) return changeDirectoryPassword(account, input, how, keeper);
  const policy = await getPasswordPolicy();
  const hash = await findPasswordHash(account.id);
  const actor = { ...how.actor, subject: account.id };
  if (how.mode === "user") {
    if (input.current === undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "current is required", pos: "current" }] });
    const current = input.current;
    await withCountedCurrent(account.id, actor, how, async () => (hash !== null && (await verifySecret(hash, current)) ? true : "wrong_current"));
  }
  const phone = input.sendPswdToAttr === undefined ? undefined : await phoneOf(account, input.sendPswdToAttr);
  const history = await findPasswordHistory(account.id, policy.historySize + 1);
  const password = await chooseNewPassword(input, account, how.mode, hash, history, policy);
  const newHash = await hashSecret(password);
  const at = new Date();
  const devices = await inTransaction(async (tx) => {
    const locked = await lockPasswordHash(account.id, tx);
    if (!locked) throw new AppError("user.not_found", { params: { userId: account.id } });
    if (locked.hash !== hash) {
      throw new AppError("password.store_refused", { flat: true, items: [violationItem({ rule: "id_store", params: {} }, input.locale)] });
    }
    // A password set before history was kept (registration, import) joins it now, so it cannot come straight back.
    if (hash !== null && history[0]?.hash !== hash) await writePassword(account.id, hash, new Date(at.getTime() - 1), policy.historySize + 1, tx);
    await writePassword(account.id, newHash, at, policy.historySize + 1, tx);
    await notePasswordNeedsSecondFactor(account.id, !meetsSingleFactorLength(password, policy), tx);
    if (phone) await enqueueMessage(tx, { channel: "sms", to: phone, template: "new_password", locale: input.locale, params: { password }, userId: account.id, purpose: "password.new" });
    return deleteDevicesOf(account.id, input.keepDevice, tx);
  });
  if (phone) kickDelivery();
  await announcePasswordChange(account, input, how, { at, phone, note: { devicesForgotten: devices } });
}
