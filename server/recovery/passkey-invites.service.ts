import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { passkeyRegistrationOptions, passkeyUserOf, registerPasskey } from "../passkeys/passkeys.service.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { claimWorkingInvite, giveBackInvite, openInvite } from "./recovery-invites.service.ts";
import type { TInviteRow } from "./recovery.repository.ts";

/*
 * An administrator's link that enrols a passkey: how someone is set up to sign in without a
 * password, or gets back in after losing their only passkey. The registration challenge is bound to
 * the link (`invite:` and the token's hash), so only an answer given through this link registers
 * here. The link is taken before the answer is judged, so of parallel answers one registers; a
 * refused answer gives it back for another try. As with the password link, nothing signs in: the
 * person then signs in with the new passkey.
 */

const bindingOf = (row: Pick<TInviteRow, "tokenHash">) => `invite:${row.tokenHash}`;

/** Options for navigator.credentials.create(), for the link's account, while the link works. */
export async function passkeyInviteOptions(token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const row = await openInvite(token);
  const account = row?.purpose === "passkey" ? await findActiveAccount(row.userId) : null;
  if (!row || !account) throw new AppError("recovery.link_spent");
  return passkeyRegistrationOptions(passkeyUserOf(account), { binding: bindingOf(row) });
}

export type TPasskeyInviteResult = { ok: true } | { ok: false; reason: "spent" } | { ok: false; reason: "refused"; code: string };

/** Registers the device's answer as the account's passkey, named `name`; the link is then used up. */
export async function usePasskeyInvite(token: string, answer: unknown, name: string, actor: TEventActor): Promise<TPasskeyInviteResult> {
  const row = await claimWorkingInvite(token, "passkey", actor);
  if (!row) return { ok: false, reason: "spent" };
  try {
    await registerPasskey(row.userId, answer, name, actor, { binding: bindingOf(row) });
  } catch (e) {
    await giveBackInvite(row);
    if (e instanceof AppError) return { ok: false, reason: "refused", code: e.code };
    // A malformed answer (it failed the answer's schema): refused like one that does not verify.
    if (e instanceof Error && e.name === "ZodError") return { ok: false, reason: "refused", code: "passkeys.not_verified" };
    throw e;
  }
  await recordEvent("user.passkey_invite_used", { ...actor, subject: row.userId }, { channel: row.channel });
  return { ok: true };
}
