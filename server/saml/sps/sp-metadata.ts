import { X509Certificate } from "node:crypto";
import { AppError } from "../../errors/app-error.ts";
import { BINDING, NAME_ID_FORMAT } from "../metadata/idp-metadata.ts";
import { verifyEnveloped } from "../xml/dsig.ts";
import { ASSERTION_CIPHERS, type TAssertionCipher } from "../xml/encryption.ts";
import { attributeOf, childElements, isElement, NS, onlyChild, parseStrictXml, textOf } from "../xml/strict-xml.ts";

/*
 * A service provider's metadata, read into what we keep of it: its entity ID, where responses go
 * (HTTP-POST assertion consumer services only: the one binding a browser can carry a signed response
 * over without an artifact resolver), where logout messages go, and its certificates. When a trust
 * certificate is given the document must be signed by it, and only the signed element is read.
 */

export type TAcs = { index: number; location: string; isDefault: boolean };
export type TSlo = { binding: string; location: string; responseLocation?: string };
export type TNameIdFormatName = keyof typeof NAME_ID_FORMAT;
export type TSpMetadata = {
  entityId: string;
  acs: TAcs[];
  slo: TSlo[];
  signingCerts: string[];
  encryptionCert?: string;
  /** The GCM cipher the encryption key descriptor names (or aes256-gcm when it names none); undefined without an encryption certificate. */
  assertionCipher?: TAssertionCipher;
  authnRequestsSigned: boolean;
  nameIdFormat?: TNameIdFormatName;
};

const MAX_METADATA = 512 * 1024;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

function invalid(desc: string): never {
  throw new AppError("saml.metadata_invalid", { desc: `the service provider's metadata is not accepted: ${desc}` });
}

/** https, or http on the loopback interface (a service provider on the same machine, or a test). */
export function isAllowedEndpoint(location: string): boolean {
  try {
    const url = new URL(location);
    if (url.hash || url.username || url.password) return false;
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

/** A certificate (base64 DER, as KeyInfo holds it, or PEM) as PEM, if it is an RSA certificate. */
export function certificatePem(text: string): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    return invalid("a certificate cannot be read");
  }
  if (cert.publicKey.asymmetricKeyType !== "rsa") invalid("only RSA certificates are accepted");
  // Shorter keys are broken or close to it; a response encrypted to one would not protect anything.
  if ((cert.publicKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) invalid("an RSA key of at least 2048 bits is required");
  return pem;
}

function checked(what: string, location: string): string {
  if (!isAllowedEndpoint(location)) invalid(`${what} ${location.slice(0, 200)} must be https (http only on loopback)`);
  return location;
}
const endpoint = (el: Element) => checked(el.localName, el.getAttribute("Location") ?? "");

function keysOf(sp: Element): { signing: string[]; encryption: string[]; ciphers: string[] } {
  const signing: string[] = [];
  const encryption: string[] = [];
  const ciphers: string[] = [];
  for (const kd of childElements(sp, NS.metadata, "KeyDescriptor")) {
    const use = kd.getAttribute("use") || "both";
    const keyInfo = onlyChild(kd, NS.dsig, "KeyInfo");
    const data = keyInfo && onlyChild(keyInfo, NS.dsig, "X509Data");
    const certEl = data && onlyChild(data, NS.dsig, "X509Certificate");
    if (!certEl) continue;
    const pem = certificatePem(textOf(certEl));
    if (use === "signing" || use === "both") signing.push(pem);
    if (use === "encryption" || use === "both") {
      encryption.push(pem);
      ciphers.push(...childElements(kd, NS.metadata, "EncryptionMethod").map((m) => m.getAttribute("Algorithm") ?? ""));
    }
  }
  return { signing, encryption, ciphers };
}

function formatOf(sp: Element): TNameIdFormatName | undefined {
  const known = Object.entries(NAME_ID_FORMAT) as [TNameIdFormatName, string][];
  for (const f of childElements(sp, NS.metadata, "NameIDFormat")) {
    const hit = known.find(([, uri]) => uri === textOf(f));
    if (hit) return hit[0];
  }
  return undefined;
}

/** The GCM cipher the provider lists first, or aes256-gcm when it lists none we offer (a provider that names only CBC still gets GCM: see encryption.ts). */
function cipherOf(listed: string[]): TAssertionCipher {
  const offered = Object.entries(ASSERTION_CIPHERS) as [TAssertionCipher, string][];
  for (const uri of listed) {
    const hit = offered.find(([, u]) => u === uri);
    if (hit) return hit[0];
  }
  return "aes256-gcm";
}

/** Reads `xml`; with `trustCerts`, only when signed by one of them. */
export function parseSpMetadata(xml: string, opts: { trustCerts?: string[] } = {}): TSpMetadata {
  const expect = { ns: NS.metadata, localName: "EntityDescriptor", limits: { maxBytes: MAX_METADATA } };
  const root = opts.trustCerts?.length ? verifyEnveloped(xml, opts.trustCerts, expect) : parseStrictXml(xml, expect.limits).documentElement;
  if (!isElement(root, NS.metadata, "EntityDescriptor")) invalid("the document must be one EntityDescriptor");
  const entityId = root.getAttribute("entityID") ?? "";
  if (!entityId || entityId.length > 1024) invalid("entityID is missing or too long");
  const sp = onlyChild(root, NS.metadata, "SPSSODescriptor") ?? invalid("there is no SPSSODescriptor");
  if (!(sp.getAttribute("protocolSupportEnumeration") ?? "").split(/\s+/).includes(NS.protocol)) invalid("SAML 2.0 is not among its protocols");
  const acs = childElements(sp, NS.metadata, "AssertionConsumerService")
    .filter((el) => el.getAttribute("Binding") === BINDING.post)
    .map((el, i): TAcs => ({ index: Number(attributeOf(el, "index") ?? i), location: endpoint(el), isDefault: el.getAttribute("isDefault") === "true" }));
  if (!acs.length) invalid("it has no AssertionConsumerService with the HTTP-POST binding");
  if (acs.some((a) => !Number.isInteger(a.index) || a.index < 0 || a.index > 65_535)) invalid("an AssertionConsumerService index is not a number");
  const slo = childElements(sp, NS.metadata, "SingleLogoutService")
    .filter((el) => el.getAttribute("Binding") === BINDING.redirect || el.getAttribute("Binding") === BINDING.post)
    .map((el): TSlo => {
      const response = el.getAttribute("ResponseLocation");
      return { binding: el.getAttribute("Binding")!, location: endpoint(el), ...(response ? { responseLocation: checked("ResponseLocation", response) } : {}) };
    });
  const keys = keysOf(sp);
  return {
    entityId,
    acs,
    slo,
    signingCerts: keys.signing,
    encryptionCert: keys.encryption[0],
    assertionCipher: keys.encryption.length ? cipherOf(keys.ciphers) : undefined,
    authnRequestsSigned: sp.getAttribute("AuthnRequestsSigned") === "true",
    nameIdFormat: formatOf(sp),
  };
}
