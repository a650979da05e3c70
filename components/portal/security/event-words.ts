import { eventTitle } from "../../event-titles.ts";
import type { TLang } from "../../i18n.ts";

// The event types a person's events page offers as a filter, in this order; the words come from
// the titles the console uses too.
export const KNOWN_EVENT_TYPES: readonly string[] = [
  "user.signed_in", "user.sign_in_failed", "user.signed_out", "user.sessions_reset", "user.device_removed", "user.app_instance_removed",
  "user.qr_confirmed", "user.qr_refused", "user.password_changed", "user.password_removed", "user.recovery_code_confirmed", "user.recovery_invite_used", "user.passkey_invite_used",
  "user.otp_bound", "user.otp_removed", "user.backup_codes_created", "user.backup_code_used", "user.second_factor_reset",
  "user.consent_granted", "user.consent_denied", "user.consent_revoked", "user.attributes_changed", "user.contact_change_started",
  "user.contact_code_resent", "user.contact_code_wrong", "user.contact_confirmed", "user.contact_confirmation_failed",
  "user.registered", "user.created", "user.fa_bound", "user.fa_unbound", "oauth.code_reused", "oauth.refresh_reused", "token.revoked",
];

export function eventWords(type: string, lang: TLang): string {
  return eventTitle(type, lang);
}
