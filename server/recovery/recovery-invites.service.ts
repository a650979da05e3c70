import { createHash, randomBytes } from "node:crypto";
import type { TContact } from "../attributes/attribute-values.ts";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { inTransaction } from "../db/index.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { pageLink } from "../html/layout.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import { maskRecipient } from "../messaging/recipient-mask.ts";
import { changePasswordAtSignIn, stepsAfterSignIn } from "../sign-in/account-checks.ts";
import { holdsConsoleRole } from "../users/admin.service.ts";
import { findPasswordHash } from "../users/users.service.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { claimInvite, findInvite, releaseInvite, saveInvite, type TInvitePurpose, type TInviteRow, type TRecoveryChannel } from "./recovery.repository.ts";

/*
 * The administrator's "Send a recovery message": a link to the person's confirmed e-mail or phone
 * that sets a new password once (Keycloak's "update password" e-mail). The link does not sign in:
 * the person signs in afterwards with the new password, and with the second factor when it is on,
 * so the link alone is never more than a password. Only the token's SHA-256 is kept; the link
 * opens a form and only its submission uses the token, so a mail scanner that follows links
 * spends nothing. A link works only while nothing it relied on changed: the address it went to is
 * still the account's confirmed one, no password was set since, it is the account's newest link,
 * and, once the account holds a console role, an administrator (not a user manager) sent it.
 *
 * A link may instead enrol a passkey (purpose "passkey", passkey-invites.service.ts): the way in for
 * someone who is to sign in without a password. Each link does only what it was sent for.
 */

/** How long a link works: a working day, for a message that may be read the next morning. */
export const INVITE_TTL_HOURS = 24;
export const INVITE_PATH = "/login/recover/link";

const ATTR: Record<TRecoveryChannel, string> = { email: "email", phone: "phone_number" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");
const hashToken = sha256;
/** What the link keeps of the address and of the password it may replace: their hashes only. */
const addressMark = (channel: TRecoveryChannel, address: string) => sha256(`${channel}:${address.toLowerCase()}`);
const passwordMark = async (userId: string) => sha256(`pwd:${(await findPasswordHash(userId)) ?? ""}`);

/** The account's confirmed address on a channel, as stored; undefined when it has none. */
function confirmedAddress(attrs: Record<string, unknown>, channel: TRecoveryChannel): string | undefined {
  const contact = attrs[ATTR[channel]] as TContact | undefined;
  return typeof contact === "object" && contact !== null && contact.vrf && contact.value ? contact.value : undefined;
}

/** Which channels a recovery message can go by: the account's confirmed contacts. */
export async function inviteChannelsOf(userId: string): Promise<TRecoveryChannel[]> {
  const account = await findActiveAccount(userId);
  if (!account) throw new AppError("user.not_found", { params: { userId } });
  return (["email", "phone"] as const).filter((c) => confirmedAddress(account.attrs, c));
}

const TEMPLATE = { password: "recovery_invite", passkey: "passkey_invite" } as const;

/** Sends the link; the address it went to, masked as the outbox shows it. */
export async function sendRecoveryInvite(
  userId: string,
  channel: TRecoveryChannel,
  locale: TLocale,
  actor: TEventActor & { byAdmin: boolean },
  opts: { note?: Record<string, unknown>; purpose?: TInvitePurpose } = {},
): Promise<{ to: string }> {
  const { note = {}, purpose = "password" } = opts;
  const account = await findActiveAccount(userId);
  if (!account) throw new AppError("user.not_found", { params: { userId } });
  const to = confirmedAddress(account.attrs, channel);
  if (!to) throw new AppError("recovery.no_confirmed_contact", { params: { channel } });
  const token = randomBytes(32).toString("base64url");
  const row = { tokenHash: hashToken(token), userId, channel, addressHash: addressMark(channel, to), passwordMark: await passwordMark(userId), byAdmin: actor.byAdmin, purpose };
  await inTransaction(async (tx) => {
    await saveInvite({ ...row, expiresAt: new Date(Date.now() + INVITE_TTL_HOURS * 3600_000) }, tx);
    await enqueueMessage(tx, {
      channel: channel === "phone" ? "sms" : "email",
      to,
      template: TEMPLATE[purpose],
      locale,
      params: { link: pageLink(INVITE_PATH, { t: token, lang: locale }), hours: INVITE_TTL_HOURS },
      userId,
      purpose: "recovery.invite",
    });
  });
  kickDelivery();
  const { byAdmin: _, ...who } = actor;
  await recordEvent("user.recovery_invited", { ...who, subject: userId }, { channel, to: maskRecipient(to), ...(purpose === "passkey" ? { purpose } : {}), ...note });
  return { to: maskRecipient(to) };
}

/** The link's account, while everything the link relied on still holds; undefined otherwise. */
async function stillGood(row: TInviteRow | null, now: Date): Promise<TInviteRow | undefined> {
  if (!row || row.usedAt || row.expiresAt <= now) return undefined;
  const account = await findActiveAccount(row.userId);
  const to = account && confirmedAddress(account.attrs, row.channel);
  if (!to || addressMark(row.channel, to) !== row.addressHash) return undefined;
  if ((await passwordMark(row.userId)) !== row.passwordMark) return undefined;
  if (!row.byAdmin && (await holdsConsoleRole(row.userId))) return undefined;
  return row;
}

/** The link's row while it still works (undefined otherwise), with the hash it is stored under. */
export async function openInvite(token: string, now = new Date()): Promise<(TInviteRow & { tokenHash: string }) | undefined> {
  return stillGood(token ? await findInvite(hashToken(token)) : null, now);
}

/**
 * What the link does while it still works, and the address it went to, masked: its page names the
 * account, so a link forwarded to someone else is not taken for their own.
 */
export async function inviteSummary(token: string): Promise<{ purpose: TInvitePurpose; to: string } | undefined> {
  const row = await openInvite(token);
  const account = row && (await findActiveAccount(row.userId));
  const to = account && confirmedAddress(account.attrs, row.channel);
  return row && to ? { purpose: row.purpose, to: maskRecipient(to) } : undefined;
}

/** What the link does while it still works. */
export async function invitePurpose(token: string, now = new Date()): Promise<TInvitePurpose | undefined> {
  return (await openInvite(token, now))?.purpose;
}

/** Whether the link still works. */
export async function inviteUsable(token: string, now = new Date()): Promise<boolean> {
  return !!(await openInvite(token, now));
}

/**
 * Takes a working link for one use, for what it was sent for: of parallel uses one gets it. Refused
 * (undefined) where its account may not sign in now: password sign-in turned off (a password link),
 * or the account locked for inactivity, as "Forgot password?" refuses.
 */
export async function claimWorkingInvite(token: string, purpose: TInvitePurpose, actor: TEventActor): Promise<TInviteRow | undefined> {
  const row = await openInvite(token);
  if (!row || row.purpose !== purpose) return undefined;
  if ((await stepsAfterSignIn(row.userId, [], { ...actor, subject: row.userId }, purpose === "password")).refusal) return undefined;
  return (await claimInvite(row.tokenHash, new Date())) ? row : undefined;
}

/** Gives a claimed link back: what was typed or answered with it was refused, and may be tried again. */
export const giveBackInvite = (row: TInviteRow) => releaseInvite(row.tokenHash);

export type TInviteResult = { ok: true } | { ok: false; reason: "spent" } | { ok: false; reason: "refused"; problems: string[] };

/**
 * Sets the new password with the link. The link is taken first, so of parallel submissions one
 * goes on; only a password the policy refuses gives it back for another try. Where password
 * sign-in is turned off, or the account is locked for inactivity, the link does nothing, as
 * "Forgot password?" does. The change ends every session and token of the account and tells the
 * person, as any reset does.
 */
export async function useRecoveryInvite(token: string, password: string, locale: TLocale, actor: TEventActor): Promise<TInviteResult> {
  const row = await claimWorkingInvite(token, "password", actor);
  if (!row) return { ok: false, reason: "spent" };
  const who = { ...actor, subject: row.userId };
  const changed = await changePasswordAtSignIn(row.userId, password, locale, who, { by: "recovery_invite", channel: row.channel });
  if (!changed.ok) {
    await giveBackInvite(row);
    return { ok: false, reason: "refused", problems: changed.problems };
  }
  await recordEvent("user.recovery_invite_used", who, { channel: row.channel });
  return { ok: true };
}
