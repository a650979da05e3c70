import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { secondFactorRequired } from "../auth-modes/auth-modes.service.ts";
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
 * person then signs in with the new passkey. User verification is required whatever the policy
 * says. Not for an account whose second factor is on: a passkey signs in as two factors, so the
 * link would be worth more than the password link (which still asks for the code) and would let
 * whoever reads the person's mail skip their authenticator.
 */

const bindingOf = (row: Pick<TInviteRow, "tokenHash">) => `invite:${row.tokenHash}`;

/** Options for navigator.credentials.create(), for the link's account, while the link works. */
export async function passkeyInviteOptions(token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const row = await openInvite(token);
  const account = row?.purpose === "passkey" ? await findActiveAccount(row.userId) : null;
  if (!row || !account || (await secondFactorRequired(row.userId))) throw new AppError("recovery.link_spent");
  return passkeyRegistrationOptions(passkeyUserOf(account), { binding: bindingOf(row), requireUserVerification: true });
}

export type TPasskeyInviteResult = { ok: true } | { ok: false; reason: "spent" } | { ok: false; reason: "refused"; code: string };

/** Registers the device's answer as the account's passkey, named `name`; the link is then used up. */
export async function usePasskeyInvite(token: string, answer: unknown, name: string, actor: TEventActor): Promise<TPasskeyInviteResult> {
  const row = await claimWorkingInvite(token, "passkey", actor);
  if (!row) return { ok: false, reason: "spent" };
  try {
    if (await secondFactorRequired(row.userId)) return { ok: false, reason: "spent" };
    await registerPasskey(row.userId, answer, name, actor, { binding: bindingOf(row), requireUserVerification: true });
  } catch (e) {
    // Only a refusal gives the link back: after any other failure the passkey may be stored already.
    const refusal = e instanceof AppError ? e.code : e instanceof Error && e.name === "ZodError" ? "passkeys.not_verified" : undefined;
    if (!refusal) throw e;
    await giveBackInvite(row);
    return { ok: false, reason: "refused", code: refusal };
  }
  await recordEvent("user.passkey_invite_used", { ...actor, subject: row.userId }, { channel: row.channel });
  return { ok: true };
}
