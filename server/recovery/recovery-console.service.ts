import { adminNote, type TEventActor } from "../audit/audit.service.ts";
import type { TLocale } from "../http/locale.ts";
import { readAccount } from "../users/users.service.ts";
import { inviteChannelsOf, sendRecoveryInvite } from "./recovery-invites.service.ts";
import type { TInvitePurpose, TRecoveryChannel } from "./recovery.repository.ts";
import { AppError } from "../errors/app-error.ts";
import { secondFactorRequired } from "../auth-modes/auth-modes.service.ts";
import { passkeysOffered } from "../passkeys/passkeys.service.ts";

// The console's "Send a recovery message" on a user's page: the same link whatever started it, an administrator acting.

export async function recoveryChannelsFor(sub: string): Promise<TRecoveryChannel[]> {
  return inviteChannelsOf((await readAccount(sub)).id);
}

/**
 * `byAdmin`: sent by an administrator; a user manager's link stops working if the account gains a
 * console role. `purpose`: the link sets a new password, or enrols a passkey (while passkeys are offered).
 */
export async function sendRecoveryMessage(sub: string, channel: TRecoveryChannel, locale: TLocale, admin: TEventActor, byAdmin: boolean, purpose: TInvitePurpose = "password"): Promise<{ to: string }> {
  if (purpose === "passkey" && !(await passkeysOffered())) throw new AppError("passkeys.not_offered");
  const userId = (await readAccount(sub)).id;
  // A passkey link would let whoever reads the message skip the second factor (passkey-invites.service.ts).
  if (purpose === "passkey" && (await secondFactorRequired(userId))) throw new AppError("recovery.passkey_link_second_factor");
  return sendRecoveryInvite(userId, channel, locale, { ...admin, byAdmin }, { note: adminNote(admin), purpose });
}
