import { getSamlSigningKey } from "../keys/saml-keys.service.ts";
import { idpEntityId, NAME_ID_FORMAT } from "../metadata/idp-metadata.ts";
import type { TNameIdFormatName } from "../sps/sp-metadata.ts";
import { signEnveloped } from "../xml/dsig.ts";
import { encryptAssertion, type TAssertionCipher } from "../xml/encryption.ts";
import { NS } from "../xml/strict-xml.ts";
import { escapeXml, instant, samlId } from "../xml/xml-write.ts";

/*
 * The Response and its Assertion (SAML core §2.3.3, §3.2.2; profiles §4.1.4.2): the assertion signed
 * on its own (so that it stays signed wherever the service provider's library moves it), the
 * response signed around it (so that its Destination, InResponseTo and status are covered too).
 */

// How long an assertion may be presented: the browser posts it at once; a few minutes cover a slow network and skewed clocks.
const ASSERTION_TTL_MS = 300_000;
const SKEW_MS = 60_000;

export type TAssertionInput = {
  spEntityId: string;
  /** Encrypt the signed assertion to this certificate with this cipher. */
  encryptTo?: { certificatePem: string; cipher: TAssertionCipher };
  acsUrl: string;
  inResponseTo?: string;
  nameId: { format: TNameIdFormatName; value: string };
  authnInstant: Date;
  sessionIndex: string;
  sessionNotOnOrAfter: Date;
  classRef: string;
  attributes: TAttribute[];
};

export type TAttribute = { name: string; values: string[]; friendlyName?: string; nameFormat?: "basic" | "uri" | "unspecified" };
const NAME_FORMAT = "urn:oasis:names:tc:SAML:2.0:attrname-format:";

const STATUS = "urn:oasis:names:tc:SAML:2.0:status:";
export type TStatusFailure = "NoPassive" | "InvalidNameIDPolicy" | "NoAuthnContext" | "RequestDenied";

function assertionXml(a: TAssertionInput, id: string, now: Date): string {
  const notOnOrAfter = instant(new Date(now.getTime() + ASSERTION_TTL_MS));
  const inResponseTo = a.inResponseTo ? ` InResponseTo="${escapeXml(a.inResponseTo)}"` : "";
  const qualifiers = a.nameId.format === "persistent" || a.nameId.format === "transient" ? ` NameQualifier="${escapeXml(idpEntityId())}" SPNameQualifier="${escapeXml(a.spEntityId)}"` : "";
  const attributes = a.attributes
    .map((at) => {
      const friendly = at.friendlyName ? ` FriendlyName="${escapeXml(at.friendlyName)}"` : "";
      const values = at.values.map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join("");
      return `<saml:Attribute Name="${escapeXml(at.name)}" NameFormat="${NAME_FORMAT}${at.nameFormat ?? "basic"}"${friendly}>${values}</saml:Attribute>`;
    })
    .join("");
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${instant(now)}">` +
    `<saml:Issuer>${escapeXml(idpEntityId())}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${NAME_ID_FORMAT[a.nameId.format]}"${qualifiers}>${escapeXml(a.nameId.value)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(a.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${instant(new Date(now.getTime() - SKEW_MS))}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(a.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant(a.authnInstant)}" SessionIndex="${escapeXml(a.sessionIndex)}" SessionNotOnOrAfter="${instant(a.sessionNotOnOrAfter)}"><saml:AuthnContext><saml:AuthnContextClassRef>${escapeXml(a.classRef)}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "") +
    `</saml:Assertion>`
  );
}

function responseXml(id: string, now: Date, to: { acsUrl: string; inResponseTo?: string }, status: string, body: string): string {
  const inResponseTo = to.inResponseTo ? ` InResponseTo="${escapeXml(to.inResponseTo)}"` : "";
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${instant(now)}" Destination="${escapeXml(to.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(idpEntityId())}</saml:Issuer>${status}${body}</samlp:Response>`
  );
}

/** A signed Response carrying a signed Assertion about the person. */
export async function buildSuccessResponse(a: TAssertionInput, now = new Date()): Promise<string> {
  const key = await getSamlSigningKey();
  const assertionId = samlId();
  const signed = signEnveloped(assertionXml(a, assertionId, now), assertionId, key, "Issuer");
  const assertion = a.encryptTo ? await encryptAssertion(signed, a.encryptTo.certificatePem, a.encryptTo.cipher) : signed;
  const id = samlId();
  const success = `<samlp:Status><samlp:StatusCode Value="${STATUS}Success"/></samlp:Status>`;
  return signEnveloped(responseXml(id, now, a, success, assertion), id, key, "Issuer");
}

/** A signed Response that says why there is no assertion (SAML core §3.2.2.2: a second-level code under Responder or Requester). */
export async function buildFailureResponse(to: { acsUrl: string; inResponseTo?: string }, failure: TStatusFailure, now = new Date()): Promise<string> {
  const key = await getSamlSigningKey();
  const top = failure === "InvalidNameIDPolicy" ? "Requester" : "Responder";
  const status = `<samlp:Status><samlp:StatusCode Value="${STATUS}${top}"><samlp:StatusCode Value="${STATUS}${failure}"/></samlp:StatusCode></samlp:Status>`;
  const id = samlId();
  return signEnveloped(responseXml(id, now, to, status, ""), id, key, "Issuer");
}
