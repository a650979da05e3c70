import type { TTx } from "../db/index.ts";
import type { TLocale } from "../http/locale.ts";
import { enqueueMessage } from "../messaging/outbox.service.ts";

export type TCodeMessage = {
  kind: "phone" | "email";
  to: string;
  code: string;
  /** Lifetime in seconds, told to the person in whole minutes. */
  ttl: number;
  locale: TLocale;
  userId?: string;
  purpose: "contact_change" | "registration";
};

const TEMPLATES = {
  contact_change: { email: "confirm_email_code", phone: "confirm_phone_code" },
  registration: { email: "registration_email_code", phone: "registration_phone_code" },
} as const;

/**
 * Queues the code in the caller's transaction: it is sent only if the confirmation it belongs to
 * commits. The caller kicks delivery after the commit.
 */
export async function deliverCode(tx: TTx, m: TCodeMessage): Promise<void> {
  await enqueueMessage(tx, {
    channel: m.kind === "phone" ? "sms" : "email",
    to: m.to,
    template: TEMPLATES[m.purpose][m.kind],
    locale: m.locale,
    params: { code: m.code, minutes: Math.max(1, Math.round(m.ttl / 60)) },
    userId: m.userId,
    purpose: m.purpose,
  });
}
