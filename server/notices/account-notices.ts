import type { TEventActor } from "../audit/audit.service.ts";
import type { TContact } from "../attributes/attribute-values.ts";
import { getCatalog } from "../attributes/attributes.service.ts";
import { inTransaction } from "../db/index.ts";
import { describeError, log } from "../log/logger.ts";
import { kickDelivery } from "../messaging/delivery-worker.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";
import type { TChannel, TNoticeKind } from "../messaging/templates.ts";
import { describeUserAgent } from "../sessions/user-agent.ts";
import { attributesOf, type TAccount } from "../users/account.ts";

/*
 * A change of how someone gets into their account is told to them at their confirmed e-mail
 * addresses and phone numbers, whoever made it (they, an application, an administrator): the
 * password, the second factor, a generator, a contact, a linked external account, a sign-in from a
 * new device. Each message says what happened, when, from where, and what to do if it was not them.
 * Messages go through the outbox, so a transport that is down delays them and loses none.
 */

export type TNotice = {
  kind: TNoticeKind;
  /** Who did it: where from and with what browser (the user-mode headers, or the browser's own). */
  actor: TEventActor;
  /** What it concerns, shown as it is (no secrets: a provider, a masked address, a generator's name). */
  detail?: string;
  /** Also told, besides the account's confirmed contacts: the address a contact change replaced. */
  alsoTo?: { channel: TChannel; to: string }[];
  /** Not told: a contact that hears of the change in another message already (a new password by SMS). */
  notTo?: string[];
  locale?: string;
  at?: Date;
};

type TNoticeAccount = Pick<TAccount, "id" | "attrs" | "locked">;

/** The account's confirmed e-mail addresses and phone numbers, by the catalog's contact types. */
export async function confirmedContacts(account: TNoticeAccount): Promise<{ channel: TChannel; to: string }[]> {
  const catalog = await getCatalog();
  const attrs = attributesOf(account);
  return catalog.defs.flatMap((def) => {
    if (def.type !== "email" && def.type !== "phone") return [];
    const value = attrs[def.name] as TContact | undefined;
    if (typeof value !== "object" || value === null || !value.vrf || !value.value) return [];
    return [{ channel: def.type === "email" ? ("email" as const) : ("sms" as const), to: value.value }];
  });
}

/**
 * Tells the account holder, after the change committed. A failure to write the messages is logged
 * and swallowed: the change itself stands, and the security event records it either way.
 */
export async function tellAccountHolder(account: TNoticeAccount, notice: TNotice): Promise<void> {
  try {
    const recipients = [...(await confirmedContacts(account)), ...(notice.alsoTo ?? [])];
    const unique = [...new Map(recipients.filter((r) => !notice.notTo?.includes(r.to)).map((r) => [`${r.channel}:${r.to}`, r])).values()];
    if (!unique.length) return;
    const device = notice.actor.userAgent ? describeUserAgent(notice.actor.userAgent).name : null;
    const params = { kind: notice.kind, when: (notice.at ?? new Date()).toISOString(), from: notice.actor.ip ?? null, device, detail: notice.detail ?? null };
    await inTransaction(async (tx) => {
      for (const r of unique) {
        await enqueueMessage(tx, { ...r, template: "account_notice", locale: notice.locale, params, userId: account.id, purpose: `notice.${notice.kind}` });
      }
    });
    kickDelivery();
  } catch (e) {
    log.error("account notice not written", { userId: account.id, kind: notice.kind, ...describeError(e) });
  }
}
