import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { changePropsOf, propsOf } from "../props/props.service.ts";
import type { TProps } from "../props/props.schemas.ts";
import { hasSecurityQuestion } from "../security-question/security-question.service.ts";
import { readAccount } from "../users/users.service.ts";
import type { TAccountStateView } from "./account-state.schemas.ts";
import { accountStateOf, setUntouchable, unlockAccount } from "./account-state.service.ts";

// The console's view of an account's security: the same rules as …/state, …/secQsn and …/props.

export type TAccountSecurity = {
  state: TAccountStateView;
  /** Whether a security question is set (the question itself is the user's). */
  securityQuestion: boolean;
  props: TProps;
  /** The configured period, so the page can say whether the lock is on (0: off). */
  inactivityLockDays: number;
};

export async function accountSecurityOf(sub: string): Promise<TAccountSecurity> {
  const { id } = await readAccount(sub);
  const [state, securityQuestion, props] = await Promise.all([accountStateOf(id), hasSecurityQuestion(id), propsOf(id)]);
  return { state, securityQuestion, props, inactivityLockDays: getConfig().account.inactivity.lockAfterS / 86_400 };
}

/** "Untouchable until": `till` in Unix seconds, absent for ever; a time now or earlier ends it. */
export async function setUntouchableFor(sub: string, till: number | undefined, admin: TEventActor): Promise<void> {
  const { id } = await readAccount(sub);
  await setUntouchable(id, till, admin, adminNote(admin));
}

export async function endUntouchableFor(sub: string, admin: TEventActor): Promise<void> {
  const { id } = await readAccount(sub);
  await setUntouchable(id, Math.floor(Date.now() / 1000), admin, adminNote(admin));
}

export async function unlockFor(sub: string, admin: TEventActor): Promise<void> {
  const { id } = await readAccount(sub);
  await unlockAccount(id, admin, adminNote(admin));
}

/** The properties editor: the same checks and limits as POST …/props. */
export async function changePropsFor(sub: string, change: { add?: unknown; remove?: unknown }, admin: TEventActor): Promise<TProps> {
  const { id } = await readAccount(sub);
  return changePropsOf(id, change, admin, adminNote(admin));
}
