import { recordEvent } from "../audit/audit.service.ts";
import { readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { inTransaction } from "../db/index.ts";
import { entryDnOf, mayWritePassword, writeDirectoryPassword, type TPasswordKeeper } from "../directories/directory-password.service.ts";
import { DirectoryUnavailable } from "../directories/ldap-client.ts";
import { AppError } from "../errors/app-error.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import type { TAccount } from "../users/account.ts";
import { generatePassword } from "./generate.ts";
import { announcePasswordChange, phoneOf, refuse, withCountedCurrent, type TChangeMode, type TPasswordChange } from "./password-change-steps.ts";
import { deleteDevicesOf } from "./passwords.repository.ts";
import { getPasswordPolicy } from "./policy-store.ts";
import { checkPassword } from "./policy.ts";

/*
 * A password change of an account whose password its directory keeps. Refused unless the
 * directory's settings let this service write it (the person's own change, or also a reset); then
 * checked against this service's policy (its cheap rules: history and age are the directory's,
 * which keeps the passwords) and written there, where the directory's own policy applies too.
 * Nothing of the password is stored here; what follows is what follows any change.
 */

function unavailable(e: unknown): never {
  if (e instanceof DirectoryUnavailable) throw new AppError("password.directory_unavailable");
  throw e;
}

export async function changeDirectoryPassword(account: TAccount, input: TPasswordChange, how: TChangeMode, keeper: TPasswordKeeper): Promise<void> {
  const byThePerson = how.mode === "user";
  const actor = { ...how.actor, subject: account.id };
  if ((!byThePerson && !how.administratorReset) || !mayWritePassword(keeper.directory, byThePerson)) {
    await recordEvent("user.password_change_failed", actor, { reason: "kept_in_directory", directory: keeper.directory.id });
    throw new AppError("password.kept_in_directory");
  }
  if (byThePerson && input.current === undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "current is required", pos: "current" }] });
  const phone = input.sendPswdToAttr === undefined ? undefined : await phoneOf(account, input.sendPswdToAttr);
  const policy = await getPasswordPolicy();
  const password = input.password ?? generatePassword(policy);
  if (input.password !== undefined) {
    const holder = { secondFactor: (await readAuthModes(account.id)).secondFactor, current: input.current };
    const cheap = checkPassword(input.password, policy, holder);
    if (cheap.length) refuse(cheap, input.locale);
  }
  const dn = await entryDnOf(keeper).catch(unavailable);
  if (dn === null) {
    await recordEvent("user.password_change_failed", actor, { reason: "entry_gone_or_disabled", directory: keeper.directory.id });
    throw new AppError("password.kept_in_directory");
  }
  const write = () => writeDirectoryPassword(keeper, dn, password, byThePerson ? input.current : undefined).catch(unavailable);
  // The person's current password is checked by the directory, as the write binds with it: counted as any guess is.
  const asThePerson = async () => {
    const r = await write();
    return !r.ok && r.reason === "wrong_current" ? "wrong_current" : r;
  };
  const result = byThePerson ? await withCountedCurrent(account.id, actor, how, asThePerson) : await write();
  if (!result.ok) {
    await recordEvent("user.password_change_failed", actor, { reason: "directory_refused", directory: keeper.directory.id });
    throw new AppError("password.policy_violated", { items: [{ error: "password_policy_violated", desc: `the directory refused the password: ${result.message}`, pos: "password", params: { rule: "directory" } }] });
  }
  const at = new Date();
  const devices = await inTransaction(async (tx) => {
    if (phone) await enqueueMessage(tx, { channel: "sms", to: phone, template: "new_password", locale: input.locale, params: { password }, userId: account.id, purpose: "password.new" });
    return deleteDevicesOf(account.id, input.keepDevice, tx);
  });
  if (phone) kickDelivery();
  await announcePasswordChange(account, input, how, { at, phone, note: { devicesForgotten: devices, directory: keeper.directory.id } });
}
