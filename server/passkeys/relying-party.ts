import { getConfig } from "../config/config.ts";

/** How long a challenge may be answered: long enough for a person to find and touch their key. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The relying party passkeys are registered with and the origin their answers must come from: the
 * service's own pages. The RP id is IDP_WEBAUTHN_RP_ID or the public URL's host (checked at start).
 */
export function relyingParty(): { id: string; name: string; origin: string } {
  const config = getConfig();
  // Shown by the authenticator next to the account: the name the OTP apps show too.
  return { id: config.webauthnRpId, name: config.otpIssuer ?? new URL(config.issuer).host, origin: new URL(config.publicUrl).origin };
}
