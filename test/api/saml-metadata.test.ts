import { X509Certificate } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { verifyEnveloped } from "../../server/saml/xml/dsig.ts";
import { NS } from "../../server/saml/xml/strict-xml.ts";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { base, request } from "../support/http.ts";
import { hasXmlsec1, xmlsec1Verify } from "../support/xmlsec.ts";

// The SAML identity provider's metadata as a service provider reads it, checked by xmlsec1 (an XML
// signature implementation that is not ours) and by our own verifier, before and after a rotation.

const MD = { ns: NS.metadata, localName: "EntityDescriptor", limits: { maxBytes: 512 * 1024 } };
const pemOf = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
/** The certificate in the signature's own KeyInfo: the key that signed. */
const signerIn = (xml: string) => /<ds:Signature[\s\S]*<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>[\s\S]*<\/ds:Signature>/.exec(xml)?.[1];
/** The certificates named in KeyDescriptors (the signature's own KeyInfo repeats the signer's). */
const publishedIn = (xml: string) => [...xml.matchAll(/<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>([^<]+)</g)].map((m) => m[1]!);

async function metadata() {
  const r = await request("/saml/metadata");
  expect(r.status, r.text).toBe(200);
  return r;
}

describe("GET /saml/metadata", () => {
  it("publishes the entity, its endpoints and formats, signed by the key it publishes", async () => {
    const r = await metadata();
    expect(r.headers.get("content-type")).toBe("application/samlmetadata+xml; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    const xml = r.text;
    expect(xml).toContain(`entityID="${base()}/saml/metadata"`);
    expect(xml).toContain('<md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">');
    for (const binding of ["HTTP-Redirect", "HTTP-POST"]) {
      expect(xml).toContain(`<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${base()}/saml/sso"/>`);
      expect(xml).toContain(`<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${base()}/saml/slo"/>`);
    }
    expect(xml).toContain("<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>");
    const [published] = publishedIn(xml);
    const cert = new X509Certificate(pemOf(published!));
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect(cert.subject).toBe(`CN=${new URL(base()).hostname} SAML signing`);
    // Our verifier, with only the published certificate trusted, reads the same entity back.
    expect(verifyEnveloped(xml, [pemOf(published!)], MD).getAttribute("entityID")).toBe(`${base()}/saml/metadata`);
  });

  it("is verified by xmlsec1 with the published certificate, and a changed copy is not", async (ctx) => {
    if (!hasXmlsec1()) return ctx.skip();
    const xml = (await metadata()).text;
    const cert = pemOf(publishedIn(xml)[0]!);
    const good = xmlsec1Verify(xml, cert, "urn:oasis:names:tc:SAML:2.0:metadata:EntityDescriptor");
    expect(good.output).toMatch(/^OK/m);
    expect(good.ok).toBe(true);
    const tampered = xmlsec1Verify(xml.replace("/saml/sso\"/>", "/saml/evil\"/>"), cert, "urn:oasis:names:tc:SAML:2.0:metadata:EntityDescriptor");
    expect(tampered.ok).toBe(false);
    expect(tampered.output).toMatch(/FAIL/);
  });

  it("publishes the next certificate at once after a rotation, while the key in force still signs", async () => {
    const before = await metadata();
    const [signingBefore] = publishedIn(before.text);
    const cookie = await consoleSignIn(base(), "admin", inject("adminPassword"));
    const rotated = await trpcCall(base(), cookie, "console.samlKeys.rotate", {}, "mutation");
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const after = (await metadata()).text;
    const published = publishedIn(after);
    expect(published).toHaveLength(2);
    expect(published).toContain(signingBefore);
    // Still signed by the old key: the new one signs a week from now (IDP_SAML_KEY_PUBLISH_AHEAD).
    expect(signerIn(before.text)).toBe(signingBefore);
    expect(signerIn(after)).toBe(signingBefore);
    expect(verifyEnveloped(after, [pemOf(signingBefore!)], MD).getAttribute("entityID")).toBe(`${base()}/saml/metadata`);
    const list = await trpcCall(base(), cookie, "console.samlKeys.list");
    const states = (list.body.result!.data.keys as { kid: string; state: string; certificatePem: string }[]).map((k) => k.state).sort();
    expect(states).toEqual(["signing", "waiting"]);
    expect(JSON.stringify(list.body)).not.toMatch(/PRIVATE KEY|privateKey/);
  });

  it("answers other methods with 405", async () => {
    const r = await request("/saml/metadata", { method: "POST" });
    expect(r.status).toBe(405);
  });
});
