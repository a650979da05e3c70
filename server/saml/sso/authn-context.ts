import { childElements, NS, textOf } from "../xml/strict-xml.ts";
import type { TAcr } from "../../oauth/authorize/acr.ts";

/*
 * RequestedAuthnContext and AuthnContextClassRef, mapped onto the acr levels the OpenID Connect side
 * uses (oauth/authorize/acr.ts): a password over TLS is what any sign-in here is; a passkey is the
 * phishing-resistant one, named as the OpenID PAPE policy does.
 */

export const CLASS_REF = {
  unspecified: "urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified",
  password: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
  previousSession: "urn:oasis:names:tc:SAML:2.0:ac:classes:PreviousSession",
  phishingResistant: "http://schemas.openid.net/pape/policies/2007/06/phishing-resistant",
} as const;

// Rank 1: what any sign-in satisfies; rank 2: only a passkey.
const RANK: Readonly<Record<string, number>> = { [CLASS_REF.unspecified]: 1, [CLASS_REF.password]: 1, [CLASS_REF.previousSession]: 1, [CLASS_REF.phishingResistant]: 2 };

/**
 * What the request demands, as acr_values: undefined when any sign-in will do, ["phr"] when only a
 * passkey will, "unsatisfiable" when it asks only for contexts we do not know (SAML core §3.3.2.2.1:
 * then the answer is NoAuthnContext).
 */
export function demandOf(requested: Element): string[] | "unsatisfiable" | undefined {
  const comparison = requested.getAttribute("Comparison") || "exact";
  const ranks = childElements(requested, NS.assertion, "AuthnContextClassRef").map((el) => RANK[textOf(el)]);
  const known = ranks.filter((r): r is number => r !== undefined);
  if (!known.length) return "unsatisfiable";
  const best = Math.max(...known);
  const lowest = Math.min(...known);
  switch (comparison) {
    case "exact":
    case "maximum":
      // Exactly (or at most) one of the listed: a passkey satisfies "phishing-resistant", any sign-in the others.
      return lowest >= 2 ? ["phr"] : undefined;
    case "minimum":
      return lowest >= 2 ? ["phr"] : undefined;
    case "better":
      return best >= 2 ? "unsatisfiable" : ["phr"];
    default:
      return "unsatisfiable";
  }
}

/** The class reference a sign-in with this acr is reported with. */
export function classRefOf(acr: TAcr): string {
  return acr === "phr" ? CLASS_REF.phishingResistant : acr === "1" ? CLASS_REF.password : CLASS_REF.previousSession;
}
