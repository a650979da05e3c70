import { AppError } from "../../errors/app-error.ts";
import { idpEntityId, NAME_ID_FORMAT } from "../metadata/idp-metadata.ts";
import type { TNameIdFormatName } from "../sps/sp-metadata.ts";
import { attributeOf, childElements, NS, onlyChild, textOf } from "../xml/strict-xml.ts";
import { escapeXml, instant } from "../xml/xml-write.ts";

/* LogoutRequest and LogoutResponse (SAML core §3.7), as we write them and as we read them. */

const STATUS = "urn:oasis:names:tc:SAML:2.0:status:";
// How long a logout request we send may be acted on.
const LOGOUT_TTL_MS = 300_000;

export type TLogoutRequestOut = { id: string; destination: string; nameId: string; nameIdFormat: TNameIdFormatName; spEntityId: string; sessionIndex: string };

export function logoutRequestXml(r: TLogoutRequestOut, now = new Date()): string {
  const qualifiers = r.nameIdFormat === "persistent" || r.nameIdFormat === "transient" ? ` NameQualifier="${escapeXml(idpEntityId())}" SPNameQualifier="${escapeXml(r.spEntityId)}"` : "";
  return (
    `<samlp:LogoutRequest xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${r.id}" Version="2.0" IssueInstant="${instant(now)}" Destination="${escapeXml(r.destination)}" NotOnOrAfter="${instant(new Date(now.getTime() + LOGOUT_TTL_MS))}">` +
    `<saml:Issuer>${escapeXml(idpEntityId())}</saml:Issuer>` +
    `<saml:NameID Format="${NAME_ID_FORMAT[r.nameIdFormat]}"${qualifiers}>${escapeXml(r.nameId)}</saml:NameID>` +
    `<samlp:SessionIndex>${escapeXml(r.sessionIndex)}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}

export type TLogoutStatus = "Success" | "PartialLogout";

export function logoutResponseXml(r: { id: string; destination: string; inResponseTo: string; status: TLogoutStatus }, now = new Date()): string {
  // PartialLogout is a second-level code under Success (SAML core §3.2.2.2).
  const status = r.status === "Success" ? `<samlp:StatusCode Value="${STATUS}Success"/>` : `<samlp:StatusCode Value="${STATUS}Success"><samlp:StatusCode Value="${STATUS}PartialLogout"/></samlp:StatusCode>`;
  return (
    `<samlp:LogoutResponse xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${r.id}" Version="2.0" IssueInstant="${instant(now)}" Destination="${escapeXml(r.destination)}" InResponseTo="${escapeXml(r.inResponseTo)}">` +
    `<saml:Issuer>${escapeXml(idpEntityId())}</saml:Issuer><samlp:Status>${status}</samlp:Status></samlp:LogoutResponse>`
  );
}

export type TLogoutRequestIn = { id: string; nameId: string; sessionIndexes: string[] };

const invalid = (desc: string): never => {
  throw new AppError("saml.request_invalid", { desc });
};

/** The parts of a verified LogoutRequest we act on; its time and addressing are checked by the caller. */
export function readLogoutRequest(root: Element): TLogoutRequestIn {
  const id = root.getAttribute("ID") ?? "";
  if (!id || id.length > 256) invalid("the request's ID is missing or too long");
  // An encrypted NameID is not offered: we never ask for one.
  const nameId = onlyChild(root, NS.assertion, "NameID") ?? invalid("the logout request names nobody (an encrypted NameID is not accepted)");
  return { id, nameId: textOf(nameId), sessionIndexes: childElements(root, NS.protocol, "SessionIndex").map(textOf).slice(0, 20) };
}

/** InResponseTo and whether the provider logged the person out. */
export function readLogoutResponse(root: Element): { inResponseTo: string; success: boolean } {
  const inResponseTo = attributeOf(root, "InResponseTo") || invalid("the logout response answers no request");
  const status = onlyChild(root, NS.protocol, "Status");
  const code = status && onlyChild(status, NS.protocol, "StatusCode")?.getAttribute("Value");
  return { inResponseTo, success: code === `${STATUS}Success` };
}
