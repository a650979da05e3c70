import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import type { TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import { inTransaction } from "../db/index.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";
import { dropBackupCodes } from "../backup-codes/backup-codes.service.ts";
import { countGeneratorsOf, lockAccount } from "../otp/otp-generators.service.ts";
import { countPasskeysOf } from "../passkeys/passkeys-of.ts";
import type { TTx } from "../db/index.ts";
import { findAuthModes, findPasswordNeedsSecondFactor, saveAuthModes, savePasswordNeedsSecondFactor, unsetNeedPasswordChange, type TAuthModes } from "./auth-modes.repository.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { secondFactorRequired } from "./auth-modes.repository.ts";

export type { TAuthModes };

/** A change as the API writes it: requiredFactor 2 on, null/0/1 off; needPasswordChange only true; methodsLocked [] or ["password"]. */
export type TAuthModesChange = { requiredFactor?: 0 | 1 | 2 | null; needPasswordChange?: true; methodsLocked?: "password"[] };

/**
 * The modes the sign-in flow acts on: `secondFactor` asks for an OTP code after the password,
 * `needPasswordChange` forces a new password, `methodsLocked` containing "password" refuses password
 * sign-in (said only once the password was right). One query; an account without modes has all off.
 */
export function readAuthModes(userId: string): TMaybePromise<TAuthModes> {
  return modesCache.read(userId, findAuthModes);
}

// GET …/auth is a hot read and the sign-in flow reads the modes on every sign-in: they are held in
// process and dropped in every process through the change bus when a writer below commits.
const MODES_TOPIC = "auth-modes";
const modesCache = keyedCache<TAuthModes>(MODES_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 50_000 });
const publishModesChange = (userId: string) => publishChange(MODES_TOPIC, userId);

/**
 * Called by the password change, in its transaction, with whether the new password met the policy's
 * single-factor minimum or passed only because the second factor is on.
 */
export function notePasswordNeedsSecondFactor(userId: string, needsSecondFactor: boolean, tx: TTx): Promise<void> {
  return savePasswordNeedsSecondFactor(userId, needsSecondFactor, tx);
}

/** Called by the password change once a new password is set; records the event when it was set. */
export async function clearNeedPasswordChange(userId: string, actor: TEventActor = {}): Promise<void> {
  if (await unsetNeedPasswordChange(userId)) {
    await publishModesChange(userId);
    await recordEvent("user.auth_modes_changed", { ...actor, subject: userId }, { needPasswordChange: false, reason: "password_changed" });
  }
}

function applyChange(modes: TAuthModes, change: TAuthModesChange): TAuthModes {
  return {
    secondFactor: change.requiredFactor === undefined ? modes.secondFactor : change.requiredFactor === 2,
    needPasswordChange: change.needPasswordChange ?? modes.needPasswordChange,
    methodsLocked: change.methodsLocked ?? modes.methodsLocked,
  };
}

/**
 * Applies a change and returns the resulting modes. Turning the second factor on needs a bound
 * generator or a passkey; the account row is locked meanwhile, so a generator cannot be removed between the check
 * and the write (removeGenerator takes the same lock).
 */
/** `tell: false` where the caller tells the person itself, in one message about the whole change (a second-factor reset). */
export async function changeAuthModes(userId: string, change: TAuthModesChange, actor: TEventActor, note: Record<string, unknown> = {}, options: { tell?: boolean } = {}): Promise<TAuthModes> {
  const why: Record<string, unknown> = {};
  const { before, after } = await inTransaction(async (tx) => {
    if (!(await lockAccount(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    const current = await findAuthModes(userId, tx);
    const next = applyChange(current, change);
    if (next.secondFactor && !current.secondFactor && (await countGeneratorsOf(userId, tx)) + (await countPasskeysOf(userId, tx)) === 0) {
      throw new AppError("auth_modes.no_second_factor_method", {
        items: [{ error: "has_not_sf_methods", desc: "the account has no second-factor method: bind a TOTP or HOTP generator or add a passkey first", pos: "requiredFactor" }],
      });
    }
    // A password shorter than the single-factor minimum was allowed only behind the second factor:
    // without it, the next sign-in asks for a new one (NIST 800-63B rev. 4's 15 characters).
    if (current.secondFactor && !next.secondFactor && !next.needPasswordChange && (await findPasswordNeedsSecondFactor(userId, tx))) {
      next.needPasswordChange = true;
      why.forcedChangeReason = "password_short_for_single_factor";
    }
    await saveAuthModes(userId, next, tx);
    // Backup codes belong to the second factor they were made with: turned on again later (here,
    // by an administrator or the API), an old set must not sign in.
    if (current.secondFactor && !next.secondFactor) await dropBackupCodes(userId, tx);
    return { before: current, after: next };
  });
  await publishModesChange(userId);
  const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof TAuthModes])));
  if (Object.keys(changed).length) await recordEvent("user.auth_modes_changed", { ...actor, subject: userId }, { ...changed, ...note, ...why });
  if (before.secondFactor && !after.secondFactor && options.tell !== false) await tellAccountHolderOf(userId, { kind: "second_factor_off", actor });
  return after;
}

/** The v3 modes object: requiredFactor 2 when on and absent when off, the two others always present. */
export function toAuthModesV3(m: TAuthModes): { requiredFactor?: 2; needPasswordChange: boolean; methodsLocked: string[] } {
  return { ...(m.secondFactor ? { requiredFactor: 2 as const } : {}), needPasswordChange: m.needPasswordChange, methodsLocked: m.methodsLocked };
}
