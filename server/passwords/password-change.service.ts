import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import type { TContact } from "../attributes/attribute-values.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { clearNeedPasswordChange, notePasswordNeedsSecondFactor, readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { hashSecret, verifySecret } from "../crypto/password-hash.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { tellAccountHolder } from "../notices/account-notices.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import { endSessionsOf } from "../sessions/user-devices.service.ts";
import { relayedKeys, signInKeys } from "../sign-in/throttle-keys.ts";
import { reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "../sign-in/throttle.service.ts";
import type { TAccount } from "../users/account.ts";
import { findPasswordHash } from "../users/users.service.ts";
import { generatePassword } from "./generate.ts";
import { deleteDevicesOf, findPasswordHistory, lockPasswordHash, writePassword, type THistoryRow } from "./passwords.repository.ts";
import { getPasswordPolicy } from "./policy-store.ts";
import { checkAge, checkPassword, meetsSingleFactorLength, normalizeForPolicy, violationItem, type TPasswordPolicy, type TPolicyViolation } from "./policy.ts";

export type TPasswordChange = {
  /** User mode: the password the user has now (required). System mode: ignored. */
  current?: string;
  /** The new password; a generated one when absent. */
  password?: string;
  /** A phone attribute of the account that receives the new password by SMS. */
  sendPswdToAttr?: string;
  /** The device (IDP-CI-UA-ID) that keeps its sessions and tokens. */
  keepDevice?: string;
  locale: TLocale;
};

export type TChangeMode = {
  mode: "user" | "system";
  actor: TEventActor;
  note?: Record<string, unknown>;
  /**
   * User mode through the REST API: the client application that relays the person's input. The
   * address it reports (X-Forwarded-For) is only its word, so failures count per (client, account),
   * never per that address. Absent: a browser talking to the service itself (the portal), whose
   * address the service saw.
   */
  relayedBy?: string;
  /**
   * The portal: the account's own known device, the browser in hand. As at the sign-in page, its
   * failures count on a pair of their own and the account's ceiling does not hold it back, so a
   * stranger who fills the ceiling cannot stop the owner from changing the password.
   */
  knownDevice?: string;
};

function refuse(violations: TPolicyViolation[], locale: TLocale): never {
  throw new AppError("password.policy_violated", { items: violations.map((v) => violationItem(v, locale)) });
}

function wrongPhone(desc: string): AppError {
  return new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc, pos: "sendPswdToAttr" }] });
}

/**
 * The phone number the new password goes to: a phone attribute of the account with a value, and a
 * confirmed one (a password sent to a number nobody proved is theirs may reach a stranger).
 */
async function phoneOf(account: TAccount, attr: string): Promise<string> {
  const def = (await getCatalog()).byName.get(attr);
  if (def?.type !== "phone") throw wrongPhone(`${attr} is not a phone attribute`);
  const value = account.attrs[attr] as TContact | string | undefined;
  const contact = typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  const phone = contact ? contact.value : value;
  if (typeof phone !== "string" || !phone) throw wrongPhone(`the user has no ${attr}`);
  if (contact && !contact.vrf) throw wrongPhone(`the user's ${attr} is not confirmed`);
  return phone;
}

/**
 * User mode: the current password, counted as a sign-in is (a guess here and a guess at the sign-in
 * page count alike): from the portal per account and browser address, through an application's
 * REST call per (application, account); on the account's ceiling across addresses either way.
 */
async function checkCurrent(userId: string, hash: string | null, current: string, actor: TEventActor, how: TChangeMode): Promise<void> {
  const { keys, own, others } = how.relayedBy !== undefined ? relayedKeys(userId, how.relayedBy) : signInKeys(`user:${userId}`, actor.ip, how.knownDevice ?? null);
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) throw new AppError("password.locked_out", { headers: { "retry-after": String(reserved.retryAfterS) } });
  if (hash === null || !(await verifySecret(hash, current))) {
    await settleFailedAttempt(keys);
    await recordEvent("user.password_change_failed", { ...actor, subject: userId }, { reason: "wrong_current" });
    throw new AppError("password.invalid_credential");
  }
  await settleSuccessfulAttempt(own, others);
}

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
export async function changePassword(account: TAccount, input: TPasswordChange, how: TChangeMode): Promise<void> {
  const policy = await getPasswordPolicy();
  const hash = await findPasswordHash(account.id);
  const actor = { ...how.actor, subject: account.id };
  if (how.mode === "user") {
    if (input.current === undefined) throw new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc: "current is required", pos: "current" }] });
    await checkCurrent(account.id, hash, input.current, actor, how);
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
  await endSessionsOf(account.id, input.keepDevice, actor, { reason: "password_changed" });
  await recordEvent("user.password_changed", actor, {
    mode: how.mode,
    generated: input.password === undefined,
    sentTo: input.sendPswdToAttr ?? null,
    devicesForgotten: devices,
    ...how.note,
  });
  // The person's own change (the API in user mode, the portal, the sign-in's step), or someone else's.
  const kind = how.mode === "user" || how.note?.by === "sign_in" ? "password_changed" : "password_reset";
  await tellAccountHolder(account, { kind, actor: how.actor, locale: input.locale, at, notTo: phone ? [phone] : [] });
  // A password an administrator asked the user to change (needPasswordChange) has now been changed,
  // whichever way: the API, the portal, or the sign-in's own step.
  await clearNeedPasswordChange(account.id, actor);
}
