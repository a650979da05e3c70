import { getConfig } from "../../config/config.ts";
import { certificateBody } from "../keys/certificate.ts";
import { getSamlSigningKey, publishedSamlCertificates } from "../keys/saml-keys.service.ts";
import { signEnveloped } from "../xml/dsig.ts";
import { escapeXml, samlId } from "../xml/xml-write.ts";
import { NS } from "../xml/strict-xml.ts";

/*
 * The identity provider's metadata: who it is, where its endpoints are, which certificates sign for
 * it. Signed, so a service provider that fetched it over a network it does not trust can check it
 * against a certificate it holds.
 */

export const BINDING = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const;

export const NAME_ID_FORMAT = {
  persistent: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  email: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  unspecified: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
} as const;

/** The entity ID service providers know this identity provider by, which is also where its metadata is. */
export function idpEntityId(): string {
  return `${getConfig().issuer}/saml/metadata`;
}

/** Where service providers send requests: `{issuer}/saml/sso` and `{issuer}/saml/slo`. */
export function idpEndpoint(kind: "sso" | "slo"): string {
  return `${getConfig().issuer}/saml/${kind}`;
}

// How long a service provider may keep a copy before fetching again: short enough that a rotated-in
// certificate (published IDP_SAML_KEY_PUBLISH_AHEAD before it signs, a week by default) is seen in time.
const CACHE_DURATION = "PT6H";

let memo: { key: string; xml: string } | undefined;

/** The signed metadata; signed once per set of published keys, not once per request. */
export async function idpMetadataXml(): Promise<string> {
  const certificates = await publishedSamlCertificates();
  const signer = await getSamlSigningKey();
  const key = [idpEntityId(), signer.kid, ...certificates.map((c) => c.kid)].join(" ");
  if (memo?.key === key) return memo.xml;
  const id = samlId();
  const endpoints = (kind: "sso" | "slo", element: string) =>
    [BINDING.redirect, BINDING.post].map((b) => `<md:${element} Binding="${b}" Location="${escapeXml(idpEndpoint(kind))}"/>`).join("");
  const keyDescriptors = certificates
    .map((c) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(c.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
    .join("");
  const formats = Object.values(NAME_ID_FORMAT).map((f) => `<md:NameIDFormat>${f}</md:NameIDFormat>`).join("");
  const xml =
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" xmlns:ds="${NS.dsig}" ID="${id}" entityID="${escapeXml(idpEntityId())}" cacheDuration="${CACHE_DURATION}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="${NS.protocol}">` +
    keyDescriptors +
    endpoints("slo", "SingleLogoutService") +
    formats +
    endpoints("sso", "SingleSignOnService") +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`;
  const signed = signEnveloped(xml, id, signer);
  memo = { key, xml: signed };
  return signed;
}
