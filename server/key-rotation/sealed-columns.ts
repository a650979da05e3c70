import type { TKeyPurpose } from "../crypto/keys.ts";

/**
 * Every column that holds a sealed value, with the purpose its key is derived for. A new sealed
 * column goes here too, or `rotate-secret-key` leaves it under the old key (the unit test of this
 * list compares it with the schema's "Sealed" comments).
 */
export const SEALED_COLUMNS = [
  { table: "signing_keys", column: "private_key_enc", purpose: "signing-keys" },
  { table: "saml_signing_keys", column: "private_key_enc", purpose: "signing-keys" },
  { table: "otp_generators", column: "seed", purpose: "otp-seeds" },
  { table: "otp_pending_secrets", column: "seed", purpose: "otp-seeds" },
  { table: "otp_devices", column: "seed", purpose: "otp-seeds" },
  { table: "federation_providers", column: "client_secret", purpose: "federation-secrets" },
  { table: "external_auth_requests", column: "code_verifier", purpose: "federation-secrets" },
  { table: "external_tokens", column: "access_token", purpose: "federation-tokens" },
  { table: "external_tokens", column: "refresh_token", purpose: "federation-tokens" },
  { table: "login_flows", column: "external_identity", purpose: "federation-tokens" },
  { table: "outbox_messages", column: "body_sealed", purpose: "outbox" },
  { table: "delivery_settings", column: "smtp_password", purpose: "delivery-secrets" },
  { table: "delivery_settings", column: "sms_webhook_token", purpose: "delivery-secrets" },
  { table: "directories", column: "bind_password", purpose: "directory-secrets" },
] as const satisfies readonly { table: string; column: string; purpose: TKeyPurpose }[];

export type TSealedColumn = (typeof SEALED_COLUMNS)[number];
