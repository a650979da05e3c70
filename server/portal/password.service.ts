import type { TEventActor } from "../audit/audit.service.ts";
import { mayWritePassword, passwordKeeperOf } from "../directories/directory-password.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { changePassword } from "../passwords/password-change.service.ts";
import { getPasswordPolicy } from "../passwords/policy-store.ts";
import { minimumLength } from "../passwords/policy.ts";
import { readAuthModes } from "../auth-modes/auth-modes.service.ts";
import { deviceOfKey } from "../sessions/sessions.service.ts";
import { readAccount } from "../users/users.service.ts";

const WRONG_CURRENT: Record<TLocale, string> = { ru: "Текущий пароль неверен", en: "The current password is wrong" };

/**
 * "Change password" in the portal: POST …/pswd in user mode for the signed-in person. The browser in
 * hand keeps its session (as IDP-CI-UA-ID would), every other session and token ends. A wrong current
 * password counts toward the sign-in limit like any other; it is answered as a field problem, not as
 * a 401, which would end the portal session.
 */
export async function changeOwnPassword(sub: string, input: { current: string; password: string; locale: TLocale }, deviceKey: string | undefined, actor: TEventActor): Promise<void> {
  const keepDevice = (await deviceOfKey(sub, deviceKey)) ?? undefined;
  try {
    await changePassword(await readAccount(sub), { current: input.current, password: input.password, keepDevice, locale: input.locale }, { mode: "user", actor, knownDevice: keepDevice });
  } catch (e) {
    if (e instanceof AppError && e.code === "password.invalid_credential") {
      throw new AppError("request.invalid_values", { items: [{ error: "invalid_credential", desc: WRONG_CURRENT[input.locale], pos: "current" }] });
    }
    throw e;
  }
}

/**
 * What the form tells before anyone types: the shortest password this account may choose, and,
 * for an account from a directory, that directory's name and whether a change here is written there.
 */
export async function ownPasswordRules(sub: string): Promise<{ minLength: number; directory: { name: string; writable: boolean } | null }> {
  const keeper = await passwordKeeperOf(sub);
  return {
    minLength: minimumLength(await getPasswordPolicy(), (await readAuthModes(sub)).secondFactor),
    directory: keeper ? { name: keeper.directory.name, writable: mayWritePassword(keeper.directory, true) } : null,
  };
}
