import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import type { TContact } from "../attributes/attribute-values.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { clearNeedPasswordChange } from "../auth-modes/auth-modes.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { tellAccountHolder } from "../notices/account-notices.ts";
import { endSessionsOf } from "../sessions/user-devices.service.ts";
import { relayedKeys, signInKeys } from "../sign-in/throttle-keys.ts";
import { giveBackAttempt, reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "../sign-in/throttle.service.ts";
import type { TAccount } from "../users/account.ts";
import { violationItem, type TPolicyViolation } from "./policy.ts";

/*
 * The steps every password change shares, wherever the password is kept (here, or in the
 * directory an account comes from): the request's shape, the counted check of the current
 * password, the phone a new password goes to, and what follows a change.
 */

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
  /**
   * System mode: an administrator's reset (the console, an application's system token). Only such a
   * reset is written into a directory that allows resets; other system-mode changes (a recovery, a
   * master's change of a slave account, the sign-in's forced change) are not resets the directory's
   * owner allowed, and are refused for a directory's account.
   */
  administratorReset?: boolean;
};

export function refuse(violations: TPolicyViolation[], locale: TLocale): never {
  throw new AppError("password.policy_violated", { items: violations.map((v) => violationItem(v, locale)) });
}

function wrongPhone(desc: string): AppError {
  return new AppError("request.invalid_values", { items: [{ error: "wrong_value", desc, pos: "sendPswdToAttr" }] });
}

/**
 * The phone number the new password goes to: a phone attribute of the account with a value, and a
 * confirmed one (a password sent to a number nobody proved is theirs may reach a stranger).
 */
export async function phoneOf(account: TAccount, attr: string): Promise<string> {
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
 * `attempt` checks it (and may do the change with it, as a directory does): "wrong_current", or its
 * result. An attempt that could not be made (it threw) is given back, not counted.
 */
export async function withCountedCurrent<T>(userId: string, actor: TEventActor, how: TChangeMode, attempt: () => Promise<T | "wrong_current">): Promise<T> {
  const { keys, own, others } = how.relayedBy !== undefined ? relayedKeys(userId, how.relayedBy) : signInKeys(`user:${userId}`, actor.ip, how.knownDevice ?? null);
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) throw new AppError("password.locked_out", { headers: { "retry-after": String(reserved.retryAfterS) } });
  let result: T | "wrong_current";
  try {
    result = await attempt();
  } catch (e) {
    await giveBackAttempt(keys);
    throw e;
  }
  if (result === "wrong_current") {
    await settleFailedAttempt(keys);
    await recordEvent("user.password_change_failed", { ...actor, subject: userId }, { reason: "wrong_current" });
    throw new AppError("password.invalid_credential");
  }
  await settleSuccessfulAttempt(own, others);
  return result;
}

/** After a change: every session and token but `keepDevice`'s ends, the change is recorded, and the person is told. */
export async function announcePasswordChange(account: TAccount, input: TPasswordChange, how: TChangeMode, done: { at: Date; phone?: string; note: Record<string, unknown> }): Promise<void> {
  const actor = { ...how.actor, subject: account.id };
  const { at, phone } = done;
  await endSessionsOf(account.id, input.keepDevice, actor, { reason: "password_changed" });
  await recordEvent("user.password_changed", actor, {
    mode: how.mode,
    generated: input.password === undefined,
    sentTo: input.sendPswdToAttr ?? null,
    ...done.note,
    ...how.note,
  });
  // The person's own change (the API in user mode, the portal, the sign-in's step), or someone else's.
  const kind = how.mode === "user" || how.note?.by === "sign_in" ? "password_changed" : "password_reset";
  await tellAccountHolder(account, { kind, actor: how.actor, locale: input.locale, at, notTo: phone ? [phone] : [] });
  // A password an administrator asked the user to change (needPasswordChange) has now been changed,
  // whichever way: the API, the portal, or the sign-in's own step.
  await clearNeedPasswordChange(account.id, actor);
}
