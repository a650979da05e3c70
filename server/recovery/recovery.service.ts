import { normalizeEmail, normalizePhone, type TContact } from "../attributes/attribute-values.ts";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { codeMatches, generateCode, hashCode } from "../contacts/codes.ts";
import { inTransaction } from "../db/index.ts";
import { passwordInDirectory } from "../directories/directory-password.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import { RECOVERY_AMR } from "../sign-in/account-checks.ts";
import { recoveryKeys } from "../sign-in/throttle-keys.ts";
import { reserveSignInAttempt, settleFailedAttempt } from "../sign-in/throttle.service.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import type { TAccount } from "../users/account.ts";
import { findIdsByValue } from "../users/users.service.ts";
import { countTry, findRecovery, saveRecovery, useRecovery, type TRecoveryChannel, type TRecoveryRow } from "./recovery.repository.ts";

/*
 * "Forgot password?": the person proves control of a confirmed e-mail address or phone number of the
 * account by a one-time code, passes the second factor when the account has one, and sets a new
 * password under the policy; the password change ends every session and token of the account and
 * tells the person. An address that names no account gets the same pages, a code nobody received,
 * and the same counters, so the pages cannot tell whether an account has it. A security question is
 * never a way in.
 */

export type { TRecoveryChannel } from "./recovery.repository.ts";
export type TRecovery = TRecoveryRow;

/** The attribute a channel's address is looked up by (the same the sign-in page looks up). */
const ATTR: Record<TRecoveryChannel, string> = { email: "email", phone: "phone_number" };

/** Where codes may go, as configured (IDP_RECOVERY); empty when recovery is off. */
export function recoveryChannels(): TRecoveryChannel[] {
  const { email, phone } = getConfig().recovery;
  return [...(email ? (["email"] as const) : []), ...(phone ? (["phone"] as const) : [])];
}

/** The pages exist only while recovery is on. */
export function requireRecovery(): void {
  if (recoveryChannels().length === 0) throw new AppError("recovery.disabled");
}

export type TAddress = { channel: TRecoveryChannel; value: string };

/**
 * What the person typed, as the index stores addresses (an e-mail lower-cased, a phone as
 * 7XXXXXXXXXX); "unknown" when it is neither, "off" when its kind is not offered.
 */
export function readAddress(text: string): TAddress | "unknown" | "off" {
  const trimmed = text.trim();
  const email = trimmed.includes("@") ? normalizeEmail(trimmed)?.toLowerCase() : undefined;
  const phone = email ? undefined : normalizePhone(trimmed);
  const address: TAddress | undefined = email ? { channel: "email", value: email } : phone ? { channel: "phone", value: phone } : undefined;
  if (!address) return "unknown";
  return recoveryChannels().includes(address.channel) ? address : "off";
}

/** The account whose confirmed contact this is, with the contact as stored; locked accounts have none. */
async function accountWith(address: TAddress): Promise<{ account: TAccount; to: string } | undefined> {
  const attr = ATTR[address.channel];
  const [id, another] = await findIdsByValue(attr, address.value);
  if (!id || another) return undefined;
  const account = await findActiveAccount(id);
  const contact = account?.attrs[attr] as TContact | undefined;
  if (!account || typeof contact !== "object" || contact === null || !contact.vrf) return undefined;
  const stored = address.channel === "email" ? contact.value.toLowerCase() : normalizePhone(contact.value);
  if (stored !== address.value) return undefined;
  // A directory's account: its password is changed in the directory, so a code here could lead nowhere.
  // Answered as an unknown address is, which tells nobody the account exists.
  return (await passwordInDirectory(account.id)) ? undefined : { account, to: contact.value };
}

/** The code of one flow's recovery is hashed with the flow: a code is good for the flow it was sent for only. */
const codeState = (flowId: string) => `recovery:${flowId}`;

export type TRequestResult = { ok: true } | { ok: false; retryAfterS: number };

/**
 * Sends a code to the address when a usable account has it confirmed, and records the flow's
 * recovery either way. Each request counts on the address's and the browser address's counters
 * before anything is looked up. Both paths write the recovery in one transaction; a known address
 * adds the account's read and the message (see docs/guides/account-recovery.md).
 */
export async function requestRecovery(flowId: string, address: TAddress, locale: TLocale, actor: TEventActor): Promise<TRequestResult> {
  const keys = recoveryKeys(address.channel, address.value, actor.ip);
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) {
    await recordEvent("user.recovery_throttled", actor, { channel: address.channel, retryAfter: reserved.retryAfterS });
    return { ok: false, retryAfterS: reserved.retryAfterS };
  }
  await settleFailedAttempt(keys);
  const found = await accountWith(address);
  const code = generateCode();
  const ttl = getConfig().codes.ttl;
  const row = { flowId, userId: found?.account.id ?? null, channel: address.channel, address: address.value, codeHash: hashCode(codeState(flowId), code), expiresAt: new Date(Date.now() + ttl * 1000) };
  await inTransaction(async (tx) => {
    await saveRecovery(row, tx);
    if (!found) return;
    await enqueueMessage(tx, {
      channel: address.channel === "phone" ? "sms" : "email",
      to: found.to,
      template: address.channel === "phone" ? "recovery_phone_code" : "recovery_email_code",
      locale,
      params: { code, minutes: Math.max(1, Math.round(ttl / 60)) },
      userId: found.account.id,
      purpose: "recovery",
    });
  });
  if (found) kickDelivery();
  await recordEvent("user.recovery_requested", { ...actor, subject: found?.account.id }, { channel: address.channel, sent: !!found });
  return { ok: true };
}

/** The flow's recovery while a code may still be tried, else undefined (none asked, used, spent or expired). */
export async function openRecovery(flowId: string, now = new Date()): Promise<TRecovery | undefined> {
  const row = await findRecovery(flowId);
  return row && row.expiresAt > now && row.attempts < getConfig().codes.attempts ? row : undefined;
}

export type TCodeCheck = { ok: true; userId: string; amr: string[] } | { ok: false; reason: "wrong"; triesLeft: number } | { ok: false; reason: "spent" };

/**
 * One try of the code. The try is counted before the code is compared, in one statement that also
 * refuses a spent or expired recovery; the right code then uses the recovery up, so of parallel
 * submissions of it exactly one goes on. A recovery of an address with no account has no right code.
 */
export async function checkRecoveryCode(recovery: TRecovery, code: string, actor: TEventActor): Promise<TCodeCheck> {
  const max = getConfig().codes.attempts;
  const who = { ...actor, subject: recovery.userId ?? undefined };
  if (!(await countTry(recovery.flowId, max, new Date()))) return { ok: false, reason: "spent" };
  const right = recovery.userId !== null && /^\d{6}$/.test(code) && codeMatches(codeState(recovery.flowId), code, recovery.codeHash);
  if (right && (await useRecovery(recovery.flowId, recovery.codeHash))) {
    await recordEvent("user.recovery_code_confirmed", who, { channel: recovery.channel });
    return { ok: true, userId: recovery.userId!, amr: [RECOVERY_AMR[recovery.channel]] };
  }
  await recordEvent("user.recovery_code_failed", who, { channel: recovery.channel });
  const triesLeft = Math.max(0, max - recovery.attempts - 1);
  return triesLeft > 0 ? { ok: false, reason: "wrong", triesLeft } : { ok: false, reason: "spent" };
}
