/**
 * Event types the console offers as suggestions in its filter, those about sign-in first. Only
 * suggestions: any type can be typed, and a type recorded by code not listed here is still found.
 */
export const SUGGESTED_EVENT_TYPES = [
  "user.signed_in",
  "user.sign_in_failed",
  "user.signed_out",
  "user.sessions_reset",
  "user.password_changed",
  "user.password_change_failed",
  "user.device_removed",
  "user.consent_granted",
  "user.consent_denied",
  "user.consent_revoked",
  "oauth.code_reused",
  "oauth.refresh_reused",
  "token.revoked",
  "client.auth_failed",
  "client.rest_auth_failed",
  "user.created",
  "user.registered",
  "user.attributes_changed",
  "user.contact_confirmed",
  "user.deleted",
  "console.access_denied",
  "console.events_exported",
  "password.policy_changed",
  "rights.granted",
  "rights.revoked",
  "right.defined",
  "right.definition_changed",
  "right.definition_deleted",
] as const;
