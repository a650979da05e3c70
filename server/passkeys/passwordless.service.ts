import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import { tellAccountHolder } from "../notices/account-notices.ts";
import { invalidateUserTokens } from "../oauth/grants/token-invalidation.service.ts";
import { lockAccount } from "../otp/otp-generators.service.ts";
import { removePassword } from "../passwords/password-removal.service.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { countPasskeysOf } from "./passkeys.repository.ts";

/*
 * "Sign in without a password from now on": an account with a passkey gives its password up. The
 * password stops signing in at once, and what it may have signed in ends with it (a password that
 * leaked is the usual reason to drop one), but the session the person is using. A forgotten passkey
 * is then recovered as a forgotten password is ("Forgot password?" sets a new one), and the last
 * passkey of an account without a password cannot be removed (passkeys.service.ts).
 */

/** Removes the account's password; refused without a passkey (there would be no way in) or without a password. */
export async function signInWithoutPassword(userId: string, actor: TEventActor, keepSession?: string): Promise<void> {
  await inTransaction(async (tx) => {
    if (!(await lockAccount(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    if ((await countPasskeysOf(userId, tx)) === 0) throw new AppError("passkeys.none_for_passwordless");
    if (!(await removePassword(userId, tx))) throw new AppError("passkeys.no_password");
  });
  await invalidateUserTokens(userId, { keepSessions: keepSession ? [keepSession] : [] });
  await recordEvent("user.password_removed", { ...actor, subject: userId }, { reason: "passwordless" });
  const snapshot = await accountSnapshot(userId);
  if (snapshot) await tellAccountHolder(snapshot.account, { kind: "password_removed", actor });
}
