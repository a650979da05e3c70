import { getConfig } from "../config/config.ts";
import type { TTx } from "../db/index.ts";
import type { TLocale } from "../http/locale.ts";
import { deliverCode } from "./code-delivery.ts";
import { generateCode, hashCode, newState } from "./codes.ts";
import { insertConfirmation } from "./confirmations.repository.ts";

export type TNewConfirmation = {
  purpose: "contact_change" | "registration";
  userId: string | null;
  registrationId: string | null;
  attr: string;
  kind: "phone" | "email";
  value: string;
  oldValue: string | null;
};

/**
 * Opens a confirmation with a fresh code (lifetime, attempts and resend cooldown from configuration)
 * and queues the code to the contact, all in the caller's transaction; the caller kicks delivery
 * after the commit.
 */
export async function openConfirmation(tx: TTx, c: TNewConfirmation, locale: TLocale): Promise<void> {
  const { ttl, attempts, resendCooldown } = getConfig().codes;
  const state = newState();
  const code = generateCode();
  const now = Date.now();
  await insertConfirmation(
    {
      ...c,
      state,
      codeHash: hashCode(state, code),
      attemptsLeft: attempts,
      expiresAt: new Date(now + ttl * 1000),
      resendAt: new Date(now + resendCooldown * 1000),
      createdAt: new Date(now),
    },
    tx,
  );
  await deliverCode(tx, { kind: c.kind, to: c.value, code, ttl, locale, userId: c.userId ?? undefined, purpose: c.purpose });
}
