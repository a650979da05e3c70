import { beforeAll, describe, expect, it } from "vitest";
import { SignedXml } from "xml-crypto";
import { AppError } from "../../errors/app-error.ts";
import { formField, makeSpKeys, newServiceProvider, type TSpKeys } from "../../../test/support/saml-sp.ts";
import { ALG, signEnveloped, verifyEnveloped } from "./dsig.ts";
import { NS, textOf } from "./strict-xml.ts";

// Signed AuthnRequests made by @node-saml/node-saml (POST binding: the signature is in the XML), and
// the ways a signed message gets wrapped, moved or re-signed to slip other values past a verifier.

const AUTHN = { ns: NS.protocol, localName: "AuthnRequest", limits: { maxBytes: 64 * 1024 }, after: { ns: NS.assertion, localName: "Issuer" } };
let sp: TSpKeys;
let other: TSpKeys;
let signed: string;

const refusal = (xml: string, certs = [sp.cert], expect: Parameters<typeof verifyEnveloped>[2] = AUTHN) => {
  try {
    verifyEnveloped(xml, certs, expect);
  } catch (e) {
    if (e instanceof AppError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "accepted";
};

async function authnRequest(keys: TSpKeys): Promise<string> {
  const saml = newServiceProvider({ entityId: "https://sp.test/metadata", acsUrl: "https://sp.test/acs", entryPoint: "https://idp.test/idp/saml/sso", keys, authnRequestBinding: "HTTP-POST" });
  return Buffer.from(formField(await saml.getAuthorizeFormAsync("r"), "SAMLRequest"), "base64").toString("utf8");
}

const idOf = (xml: string) => /ID="([^"]+)"/.exec(xml)![1]!;
const withoutDeclaration = (xml: string) => xml.replace(/^<\?xml[^>]*\?>/, "");

beforeAll(async () => {
  sp = makeSpKeys("sp.test");
  other = makeSpKeys("other.test");
  signed = await authnRequest(sp);
});

describe("verifyEnveloped", () => {
  it("returns the signed request, re-parsed from the bytes the signature covers", () => {
    const root = verifyEnveloped(signed, [other.cert, sp.cert], AUTHN);
    expect(root.getAttribute("ID")).toBe(idOf(signed));
    expect(root.getAttribute("AssertionConsumerServiceURL")).toBe("https://sp.test/acs");
    expect(textOf(root.getElementsByTagNameNS(NS.assertion, "Issuer")[0]!)).toBe("https://sp.test/metadata");
  });

  it("refuses a request signed by another key, and one whose signed content was changed", () => {
    expect(refusal(signed, [other.cert])).toBe("saml.signature_invalid: the SAML message's signature does not verify: no registered key made this signature");
    expect(refusal(signed.replace("https://sp.test/acs", "https://evil.test/acs"))).toMatch(/no registered key made this signature/);
  });

  it("refuses an unsigned request and a signature whose value was swapped for another request's", async () => {
    const unsigned = signed.replace(/<Signature[\s\S]*<\/Signature>/, "");
    expect(refusal(unsigned)).toMatch(/not signed$/);
    const second = await authnRequest(sp);
    const otherSignature = /<Signature[\s\S]*<\/Signature>/.exec(second)![0];
    expect(refusal(signed.replace(/<Signature[\s\S]*<\/Signature>/, otherSignature))).toMatch(/the reference is not to the message/);
  });

  it("refuses a forged root wrapping the signed original (in Extensions, or as a sibling)", () => {
    const inner = withoutDeclaration(signed);
    const forged = (body: string, id = "_forged") =>
      `<samlp:AuthnRequest xmlns:samlp="${NS.protocol}" ID="${id}" Version="2.0" IssueInstant="2026-01-01T00:00:00Z" AssertionConsumerServiceURL="https://evil.test/acs"><saml:Issuer xmlns:saml="${NS.assertion}">https://sp.test/metadata</saml:Issuer>${body}</samlp:AuthnRequest>`;
    expect(refusal(forged(`<samlp:Extensions>${inner}</samlp:Extensions>`))).toMatch(/the signature is not on the message itself/);
    // The original's signature moved up to the forged root, the original kept below for the digest.
    const signature = /<Signature[\s\S]*<\/Signature>/.exec(inner)![0];
    const stripped = inner.replace(signature, "");
    expect(refusal(forged(`${signature}<samlp:Extensions>${stripped}</samlp:Extensions>`))).toMatch(/the reference is not to the message/);
    // The same, the forged root taking the original's ID so that the reference points at it.
    expect(refusal(forged(`${signature}<samlp:Extensions>${stripped}</samlp:Extensions>`, idOf(signed)))).toMatch(/ID is used twice/);
  });

  it("refuses two signatures, a signature elsewhere than after Issuer, and a captured signed element of another kind", () => {
    const signature = /<Signature[\s\S]*<\/Signature>/.exec(signed)![0];
    expect(refusal(signed.replace(signature, signature + signature))).toMatch(/more than one signature/);
    expect(refusal(signed.replace(signature, "").replace("</samlp:AuthnRequest>", `${signature}</samlp:AuthnRequest>`))).toMatch(/must follow Issuer/);
    // A signed AuthnRequest presented where a LogoutRequest is expected (samlify GHSA-63ch-w8pw-4mf2's shape).
    const logout = { ...AUTHN, localName: "LogoutRequest" };
    expect(refusal(signed, [sp.cert], logout)).toMatch(/expected LogoutRequest/);
    const wrapped = `<samlp:LogoutRequest xmlns:samlp="${NS.protocol}" ID="_lo" Version="2.0"><saml:Issuer xmlns:saml="${NS.assertion}">https://sp.test/metadata</saml:Issuer><samlp:Extensions>${withoutDeclaration(signed)}</samlp:Extensions></samlp:LogoutRequest>`;
    expect(refusal(wrapped, [sp.cert], logout)).toMatch(/the signature is not on the message itself/);
  });

  it("refuses a reference to the whole document, comment-keeping canonicalisation and XPath transforms", () => {
    expect(refusal(signed.replace(`URI="#${idOf(signed)}"`, 'URI=""'))).toMatch(/the reference is not to the message/);
    expect(refusal(signed.replace(`<CanonicalizationMethod Algorithm="${ALG.excC14n}"/>`, `<CanonicalizationMethod Algorithm="${ALG.excC14n}WithComments"/>`))).toMatch(/canonicalization/);
    const xpath = `<Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"><XPath>not(ancestor-or-self::x)</XPath></Transform>`;
    expect(refusal(signed.replace("</Transforms>", `${xpath}</Transforms>`))).toMatch(/transform not accepted/);
    expect(refusal(signed.replace(ALG.sha256, "http://www.w3.org/2000/09/xmldsig#sha1"))).toMatch(/digest algorithm not accepted/);
  });

  it("refuses a message signed by an attacker who put their own certificate in KeyInfo", () => {
    const unsigned = withoutDeclaration(signed).replace(/<Signature[\s\S]*<\/Signature>/, "").replace("https://sp.test/acs", "https://evil.test/acs");
    const sig = new SignedXml({ privateKey: other.key, publicCert: other.cert, signatureAlgorithm: ALG.rsaSha256, canonicalizationAlgorithm: ALG.excC14n });
    sig.addReference({ xpath: `/*[@ID='${idOf(signed)}']`, transforms: [ALG.enveloped, ALG.excC14n], digestAlgorithm: ALG.sha256 });
    sig.computeSignature(unsigned, { location: { reference: "/*/*[local-name()='Issuer']", action: "after" } });
    const attackers = sig.getSignedXml();
    expect(attackers).toContain("<X509Certificate>");
    expect(refusal(attackers)).toMatch(/no registered key made this signature/);
    expect(refusal(attackers, [other.cert])).toBe("accepted");
  });

  it("refuses a comment slipped into a signed value (it would not change the digest)", () => {
    expect(refusal(signed.replace("https://sp.test/metadata</saml:Issuer>", "https://sp.test/meta<!---->data</saml:Issuer>"))).toMatch(/saml.xml_refused: .*comments/);
  });

  it("signs so that it verifies itself, and what it signed cannot be changed", () => {
    const xml = `<md:EntityDescriptor xmlns:md="${NS.metadata}" ID="_m1" entityID="https://idp.test/saml/metadata"><md:IDPSSODescriptor protocolSupportEnumeration="${NS.protocol}"/></md:EntityDescriptor>`;
    const out = signEnveloped(xml, "_m1", { privateKeyPem: sp.key, certificatePem: sp.cert });
    const md = { ns: NS.metadata, localName: "EntityDescriptor", limits: { maxBytes: 64 * 1024 } };
    expect(verifyEnveloped(out, [sp.cert], md).getAttribute("entityID")).toBe("https://idp.test/saml/metadata");
    expect(refusal(out.replace("https://idp.test/", "https://evil.test/"), [sp.cert], md)).toMatch(/no registered key/);
  });
});
