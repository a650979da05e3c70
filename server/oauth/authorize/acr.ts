// The acr the ID token carries, and what a client's acr_values demand of a sign-in.
//
// "0": an existing browser session stood for the person; "1": they signed in during this
// authorization (as Keycloak tells them apart); "phr": the sign-in used a phishing-resistant method,
// a passkey, bound to this service's origin (OpenID Extended Authentication Profile ACR Values:
// "phishing-resistant"). The last wins over the two others, whether the session is new or reused:
// it says how the sign-in behind it was made.

export const ACR_VALUES_SUPPORTED = ["0", "1", "phr"] as const;
export type TAcr = (typeof ACR_VALUES_SUPPORTED)[number];

/** RFC 8176 methods that prove a key bound to the origin: a passkey ("hwk" once attestation can say it is hardware). */
const PHISHING_RESISTANT = ["swk", "hwk"];

/**
 * Whether the sign-in used a passkey in this browser. A QR sign-in ("qr") inherits the methods of
 * the phone session that confirmed it, a passkey's among them, but a QR code is exactly what a
 * look-alike page can relay to a person's phone: it never counts.
 */
export function isPhishingResistant(amr: readonly string[]): boolean {
  return !amr.includes("qr") && amr.some((m) => PHISHING_RESISTANT.includes(m));
}

/**
 * Whether a request's acr_values leave only "phr": then the sign-in must be made with a passkey
 * (a session made otherwise does not count, and the sign-in page offers only passkeys). Values this
 * service does not know are passed over; with "0" or "1" among them, any sign-in will do.
 */
export function demandsPhishingResistant(acrValues: readonly string[] | undefined): boolean {
  const known = (acrValues ?? []).filter((v) => (ACR_VALUES_SUPPORTED as readonly string[]).includes(v));
  return known.length > 0 && known.every((v) => v === "phr");
}

/** The acr of a code issued for a session with these methods, `signedInNow` or not. */
export function acrOf(amr: readonly string[], signedInNow: boolean): TAcr {
  if (isPhishingResistant(amr)) return "phr";
  return signedInNow ? "1" : "0";
}
