import { checkAccountUsable, recordSignedIn } from "../account-state/account-state.service.ts";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { looksLikeBackupCode, useBackupCode } from "../backup-codes/backup-codes.service.ts";
import { readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { passwordInDirectory } from "../directories/directory-password.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { verifySecondFactor } from "../otp/otp.service.ts";
import { changePassword } from "../passwords/password-change.service.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { deviceOfKey } from "../sessions/sessions.service.ts";
import { signInKeys } from "./throttle-keys.ts";
import { reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "./throttle.service.ts";

// What the login flow asks of the account-security capabilities once a first method (password or
// QR code) proved who the person is. Each answer comes from a cache in steady state, since every
// sign-in asks.

export type TStepsAfterSignIn = {
  /** Said instead of signing in: password sign-in turned off, or the account locked for inactivity. */
  refusal?: "login.password_locked" | "login.inactivity_locked";
  secondFactor: boolean;
  passwordChange: boolean;
};

/**
 * The first method of a sign-in that recovers a password ("Forgot password?"): a code sent to a
 * confirmed e-mail or phone (RFC 8176 registers "sms"; e-mail has no registered value). Only what
 * the amr records: whether a flow is a recovery is its own state (flow-completion.ts), never read
 * from an amr, which a QR sign-in inherits from the session that confirmed it.
 */
export const RECOVERY_AMR = { email: "email", phone: "sms" } as const;

/** The steps the sign-in still needs after `amr`, or why it stops here (recorded as a failed sign-in). */
export async function stepsAfterSignIn(userId: string, amr: string[], actor: TEventActor, recovery = false): Promise<TStepsAfterSignIn> {
  const [modes, usable] = await Promise.all([readAuthModes(userId), checkAccountUsable(userId)]);
  const who = { ...actor, subject: userId };
  // A recovery ends in a new password: pointless, and refused alike, where passwords are turned off.
  if ((amr.includes("pwd") || recovery) && modes.methodsLocked.includes("password")) {
    await recordEvent("user.sign_in_failed", who, { reason: "method_locked", method: amr[0] });
    return { refusal: "login.password_locked", secondFactor: false, passwordChange: false };
  }
  if (!usable.ok) {
    await recordEvent("user.sign_in_failed", who, { reason: "inactivity_lock" });
    return { refusal: "login.inactivity_locked", secondFactor: false, passwordChange: false };
  }
  return { secondFactor: modes.secondFactor, passwordChange: modes.needPasswordChange && !(await passwordInDirectory(userId)) };
}

/** Whether a new password is still due before the sign-in ends (after the second factor); never for a directory's account. */
export async function passwordChangeDue(userId: string): Promise<boolean> {
  return (await readAuthModes(userId)).needPasswordChange && !(await passwordInDirectory(userId));
}

export type TSecondFactorCheck = { ok: true } | { ok: false; reason: "missing" | "wrong" } | { ok: false; reason: "locked_out"; retryAfterS: number };

/**
 * The one-time code of the second step: a generator's digits, or one of the account's backup codes.
 * Wrong, reused and missing codes count on the same counters as wrong passwords (the account's and
 * the address's), so neither the second factor nor its backup codes add guesses.
 */
export async function checkSecondFactorAtSignIn(userId: string, code: string, actor: TEventActor, deviceKey?: string): Promise<TSecondFactorCheck> {
  const { keys, own, others } = signInKeys(`user:${userId}`, actor.ip, await deviceOfKey(userId, deviceKey), "code");
  const who = { ...actor, subject: userId };
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) {
    await recordEvent("user.sign_in_failed", who, { reason: "locked_out", step: "otp", retryAfter: reserved.retryAfterS });
    return { ok: false, reason: "locked_out", retryAfterS: reserved.retryAfterS };
  }
  const result = /^\d{4,16}$/.test(code) ? await verifySecondFactor(userId, code) : looksLikeBackupCode(code) ? await backupCodeResult(userId, code, who) : "missing";
  if (result === "ok") {
    await settleSuccessfulAttempt(own, others);
    return { ok: true };
  }
  await settleFailedAttempt(keys);
  await recordEvent("user.sign_in_failed", who, { reason: FAILURE_REASON[result] });
  return { ok: false, reason: code ? "wrong" : "missing" };
}

const FAILURE_REASON = { missing: "missing_otp", replay: "reused_otp", wrong: "bad_otp", backup_wrong: "bad_backup_code" } as const;

/** A backup code used up, or not an unused code of the account's set (a used one is as wrong as a made-up one). */
async function backupCodeResult(userId: string, code: string, who: TEventActor): Promise<"ok" | "backup_wrong"> {
  return (await useBackupCode(userId, code, who)) ? "ok" : "backup_wrong";
}

export type TPasswordStep = { ok: true } | { ok: false; problems: string[] };

/**
 * A new password set during a sign-in: the one an administrator asked for (needPasswordChange), or
 * the one a recovery sets (`note` says so). The person proved the current one a moment ago, or proved
 * a contact, so it is set like an administrator's reset (no minimum age), with every other rule of the
 * policy; changePassword ends the account's sessions and tokens, tells the person, and clears the mode.
 */
export async function changePasswordAtSignIn(userId: string, password: string, locale: TLocale, actor: TEventActor, note: Record<string, string> = { by: "sign_in", reason: "need_password_change" }): Promise<TPasswordStep> {
  const account = await findActiveAccount(userId);
  if (!account) throw new AppError("login.flow_not_found");
  try {
    await changePassword(account, { password, locale }, { mode: "system", actor, note });
  } catch (e) {
    // The policy's refusals, and id_store when another change of this password won a race.
    const refused = e instanceof AppError && (e.code === "password.policy_violated" || e.code === "password.store_refused");
    if (refused) return { ok: false, problems: (e.details.items ?? []).map((i) => i.desc) };
    // A recovery of a directory's account: its password is changed in the directory, not here.
    if (e instanceof AppError && e.code === "password.kept_in_directory") return { ok: false, problems: [e.message] };
    throw e;
  }
  return { ok: true };
}

/** A sign-in completed: the account's state becomes (or stays) active as of now. */
export async function noteSignedIn(userId: string): Promise<void> {
  await recordSignedIn(userId);
}
