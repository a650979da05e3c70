import { describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error.ts";
import { parseStrictXml, textOf } from "./strict-xml.ts";

const LIMITS = { maxBytes: 64 * 1024 };
const refusal = (xml: string, limits = LIMITS) => {
  try {
    parseStrictXml(xml, limits);
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, desc: e.message };
    throw e;
  }
  return undefined;
};

describe("parseStrictXml", () => {
  it("reads a plain SAML document, declaration included", () => {
    const doc = parseStrictXml('<?xml version="1.0" encoding="UTF-8"?>\n<a xmlns="urn:x"><b>one &amp; <![CDATA[two]]></b></a>', LIMITS);
    expect(doc.documentElement.localName).toBe("a");
    expect(textOf(doc.documentElement.firstChild as Element)).toBe("one & two");
  });

  it("refuses an external entity (XXE) before anything is read", () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>';
    expect(refusal(xxe)).toEqual({ code: "saml.xml_refused", desc: "the SAML document is not accepted: document type declarations are not accepted" });
  });

  it("refuses entity expansion (billion laughs) and a bare DOCTYPE", () => {
    const lol = '<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;</l>';
    expect(refusal(lol)?.code).toBe("saml.xml_refused");
    expect(refusal('<!DOCTYPE a SYSTEM "http://evil.test/a.dtd"><a/>')?.code).toBe("saml.xml_refused");
    expect(refusal('<!doctype a><a/>')?.code).toBe("saml.xml_refused");
  });

  it("refuses an undeclared entity reference rather than keeping it as text", () => {
    expect(refusal("<a>&x;</a>")?.code).toBe("saml.xml_refused");
  });

  it("refuses comments and processing instructions, which canonicalisation drops or rewrites", () => {
    expect(refusal("<a><b>admin<!---->@evil.test</b></a>")?.desc).toMatch(/comments/);
    expect(refusal("<a><b>admin<?pi x?>@evil.test</b></a>")?.desc).toMatch(/only elements, text and CDATA/);
    expect(refusal('<?xml-stylesheet href="x"?><a/>')?.desc).toMatch(/top level/);
    expect(refusal("<a/><?pi x?>")?.code).toBe("saml.xml_refused");
  });

  it("refuses what is not well-formed, and a second root", () => {
    expect(refusal("<a><b></a>")?.desc).toMatch(/not well-formed/);
    expect(refusal("<a/><b/>")?.code).toBe("saml.xml_refused");
    expect(refusal("not xml at all")?.code).toBe("saml.xml_refused");
    expect(refusal("")?.code).toBe("saml.xml_refused");
  });

  it("refuses documents over the size, depth or element limits", () => {
    expect(refusal(`<a>${"x".repeat(100)}</a>`, { maxBytes: 50 })?.desc).toMatch(/too large/);
    expect(refusal(`${"<a>".repeat(70)}${"</a>".repeat(70)}`)?.desc).toMatch(/nested too deeply/);
    expect(refusal(`<a>${"<b/>".repeat(5_001)}</a>`)?.desc).toMatch(/too many elements/);
  });

  it("textOf refuses an element that holds elements where text belongs", () => {
    const doc = parseStrictXml("<a><b>x<c/>y</b></a>", LIMITS);
    expect(() => textOf(doc.documentElement.firstChild as Element)).toThrow(/must hold text only/);
  });
});
