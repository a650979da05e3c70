import { SignedXml } from "xml-crypto";
import { AppError } from "../../errors/app-error.ts";
import { childElements, isElement, NS, onlyChild, parseStrictXml, type TStrictXmlLimits } from "./strict-xml.ts";

/*
 * Enveloped XML signatures over one whole SAML element, the only shape SAML uses. Verification
 * follows the rule that defeats signature wrapping: do not ask "is there a valid signature somewhere",
 * ask "is the root element, and nothing else, signed by a key we registered", and then read values
 * only from the bytes the signature covered, re-parsed, never from the document as received.
 */

export const ALG = {
  rsaSha256: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  rsaSha512: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  sha512: "http://www.w3.org/2001/04/xmlenc#sha512",
  excC14n: "http://www.w3.org/2001/10/xml-exc-c14n#",
  enveloped: "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
} as const;

const SIGNATURE_METHODS: ReadonlySet<string> = new Set([ALG.rsaSha256, ALG.rsaSha512]);
const DIGEST_METHODS: ReadonlySet<string> = new Set([ALG.sha256, ALG.sha512]);
const TRANSFORMS: ReadonlySet<string> = new Set([ALG.enveloped, ALG.excC14n]);

export type TSigningMaterial = { privateKeyPem: string; certificatePem: string };

/**
 * `xml` with an enveloped signature over its root element (whose `ID` is `id`), placed where the
 * SAML schema wants it: right after the element named `after` (the `Issuer`), or first when none.
 */
export function signEnveloped(xml: string, id: string, key: TSigningMaterial, after?: string): string {
  const sig = new SignedXml({ privateKey: key.privateKeyPem, publicCert: key.certificatePem, signatureAlgorithm: ALG.rsaSha256, canonicalizationAlgorithm: ALG.excC14n });
  sig.addReference({ xpath: `/*[@ID='${id}']`, transforms: [ALG.enveloped, ALG.excC14n], digestAlgorithm: ALG.sha256 });
  const location = after
    ? { reference: `/*[@ID='${id}']/*[local-name()='${after}']`, action: "after" as const }
    : { reference: `/*[@ID='${id}']`, action: "prepend" as const };
  sig.computeSignature(xml, { prefix: "ds", location });
  return sig.getSignedXml();
}

export type TExpectedRoot = { ns: string; localName: string; limits: TStrictXmlLimits };

function invalid(reason: string): never {
  throw new AppError("saml.signature_invalid", { desc: `the SAML message's signature does not verify: ${reason}` });
}

/** The one Signature of the document, which must be a direct child of the root. */
function theSignature(doc: Document): Element {
  const all = doc.getElementsByTagNameNS(NS.dsig, "Signature");
  if (all.length === 0) invalid("not signed");
  if (all.length > 1) invalid("more than one signature");
  const signature = all[0]!;
  if (signature.parentNode !== doc.documentElement) invalid("the signature is not on the message itself");
  return signature;
}

/** Whether anything but the root carries `id` in an attribute xml-crypto would resolve a reference by. */
function idIsUnique(doc: Document, id: string): boolean {
  let count = 0;
  const all = doc.getElementsByTagName("*");
  for (let i = 0; i < all.length; i++) {
    const el = all[i]!;
    for (const name of ["ID", "Id", "id"]) if (el.getAttribute(name) === id) count++;
  }
  return count === 1;
}

/** The SignedInfo's algorithms and its single reference, checked against what SAML needs and no more. */
function checkSignedInfo(signature: Element, id: string): void {
  const signedInfo = onlyChild(signature, NS.dsig, "SignedInfo") ?? invalid("no SignedInfo");
  const algorithmOf = (name: string) => onlyChild(signedInfo, NS.dsig, name)?.getAttribute("Algorithm") ?? "";
  if (algorithmOf("CanonicalizationMethod") !== ALG.excC14n) invalid("canonicalization must be exclusive, without comments");
  if (!SIGNATURE_METHODS.has(algorithmOf("SignatureMethod"))) invalid("signature algorithm not accepted");
  const references = childElements(signedInfo, NS.dsig, "Reference");
  if (references.length !== 1) invalid("exactly one reference is accepted");
  const reference = references[0]!;
  if (reference.getAttribute("URI") !== `#${id}`) invalid("the reference is not to the message");
  const transforms = onlyChild(reference, NS.dsig, "Transforms");
  const used = transforms ? childElements(transforms, NS.dsig, "Transform").map((t) => t.getAttribute("Algorithm") ?? "") : [];
  if (!used.includes(ALG.enveloped) || used.some((t) => !TRANSFORMS.has(t))) invalid("transform not accepted");
  const digest = onlyChild(reference, NS.dsig, "DigestMethod")?.getAttribute("Algorithm") ?? "";
  if (!DIGEST_METHODS.has(digest)) invalid("digest algorithm not accepted");
}

/**
 * The signed root element of `xml`, re-parsed from the bytes its signature covers, when that
 * signature is valid under one of `certificates` (PEM). Refused otherwise: a root of another kind,
 * no signature or several, a signature elsewhere than on the root, a reference to anything but the
 * root's ID, an ID used twice, algorithms outside the accepted few, a key nobody registered (a
 * certificate inside the message is never trusted), or a signed element that is not the root.
 * `after`: the element the signature must follow (the SAML `Issuer`).
 */
export function verifyEnveloped(xml: string, certificates: readonly string[], expect: TExpectedRoot & { after?: { ns: string; localName: string } }): Element {
  const doc = parseStrictXml(xml, expect.limits);
  const root = doc.documentElement;
  if (!isElement(root, expect.ns, expect.localName)) invalid(`expected ${expect.localName}`);
  const id = root.getAttribute("ID");
  if (!id) invalid("the message has no ID");
  const signature = theSignature(doc);
  if (expect.after) {
    let before = signature.previousSibling;
    while (before && before.nodeType !== 1) before = before.previousSibling;
    if (!isElement(before as Element | null, expect.after.ns, expect.after.localName)) invalid(`the signature must follow ${expect.after.localName}`);
  }
  if (!idIsUnique(doc, id)) invalid("the message's ID is used twice");
  checkSignedInfo(signature, id);
  for (const certificate of certificates) {
    const signed = signedRootUnder(xml, signature, certificate);
    if (signed === undefined) continue;
    const again = parseStrictXml(signed, expect.limits).documentElement;
    if (!isElement(again, expect.ns, expect.localName) || again.getAttribute("ID") !== id) invalid("the signed element is not the message");
    return again;
  }
  return invalid("no registered key made this signature");
}

/** The canonical bytes of the signed reference when `certificate`'s key made the signature, else undefined. */
function signedRootUnder(xml: string, signature: Element, certificate: string): string | undefined {
  // getCertFromKeyInfo: a certificate the sender put in the message proves nothing.
  const sig = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
  sig.loadSignature(signature);
  try {
    if (!sig.checkSignature(xml)) return undefined;
  } catch {
    return undefined;
  }
  const refs = sig.getSignedReferences();
  return refs.length === 1 ? refs[0] : undefined;
}
