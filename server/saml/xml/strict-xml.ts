import { DOMParser } from "@xmldom/xmldom";
import { AppError } from "../../errors/app-error.ts";

/*
 * The one way SAML input is parsed. XML signatures break where two readers of one document disagree
 * (a parser that expands an entity the canonicaliser does not, a comment or processing instruction
 * that one drops and the other keeps), so everything such a disagreement needs is refused outright:
 * a DOCTYPE (and with it every entity, internal or external), processing instructions other than the
 * XML declaration, comments, entity references, and any complaint of the parser. xmldom 0.8 is the
 * line xml-crypto parses with, so our parse and the signature check's re-parse are the same code.
 */

export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  metadata: "urn:oasis:names:tc:SAML:2.0:metadata",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
} as const;

export type TStrictXmlLimits = { maxBytes: number; maxDepth?: number; maxElements?: number };

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PROCESSING_INSTRUCTION = 7;

function refuse(reason: string): never {
  throw new AppError("saml.xml_refused", { desc: `the SAML document is not accepted: ${reason}` });
}

/** `xml` as a DOM, or `saml.xml_refused` with the reason (never the document) in its details. */
export function parseStrictXml(xml: string, limits: TStrictXmlLimits): Document {
  if (Buffer.byteLength(xml, "utf8") > limits.maxBytes) refuse("too large");
  // Before the parser sees it: a DOCTYPE is where every entity trick starts, declared or external.
  if (/<!DOCTYPE|<!ENTITY|<!ATTLIST|<!ELEMENT|<!NOTATION/i.test(xml)) refuse("document type declarations are not accepted");
  if (xml.includes("<!--")) refuse("comments are not accepted");
  const complaints: string[] = [];
  const note = (m: string) => void complaints.push(m);
  const doc = new DOMParser({ errorHandler: { warning: note, error: note, fatalError: note } }).parseFromString(xml, "text/xml") as unknown as Document;
  if (complaints.length || !doc?.documentElement) refuse("not well-formed");
  walk(doc, limits.maxDepth ?? 64, limits.maxElements ?? 5_000);
  return doc;
}

/** Every node checked once: no PI but the declaration, only elements, text and CDATA inside the root. */
function walk(doc: Document, maxDepth: number, maxElements: number): void {
  let elements = 0;
  for (let n = doc.firstChild; n; n = n.nextSibling) {
    // xmldom keeps the XML declaration as a processing instruction named "xml".
    if (n.nodeType === PROCESSING_INSTRUCTION && (n as ProcessingInstruction).target === "xml" && n === doc.firstChild) continue;
    if (n.nodeType === ELEMENT) continue;
    if (n.nodeType === TEXT && !n.nodeValue?.trim()) continue;
    refuse("only one element may stand at the top level");
  }
  const stack: [Node, number][] = [[doc.documentElement, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) refuse("nested too deeply");
    if (++elements > maxElements) refuse("too many elements");
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === ELEMENT) stack.push([c, depth + 1]);
      else if (c.nodeType !== TEXT && c.nodeType !== CDATA) refuse("only elements, text and CDATA are accepted");
    }
  }
}

/** The element children of `el`, optionally only those named `localName` in `ns`. */
export function childElements(el: Element, ns?: string, localName?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== ELEMENT) continue;
    const e = c as Element;
    if (ns !== undefined && (e.namespaceURI !== ns || e.localName !== localName)) continue;
    out.push(e);
  }
  return out;
}

/** An attribute's value, or null when the element has none (xmldom's getAttribute answers "" for that). */
export function attributeOf(el: Element, name: string): string | null {
  return el.hasAttribute(name) ? el.getAttribute(name) : null;
}

/** The one child named so, or undefined; two of them is refused (a second one is how values get smuggled). */
export function onlyChild(el: Element, ns: string, localName: string): Element | undefined {
  const found = childElements(el, ns, localName);
  if (found.length > 1) refuse(`more than one ${localName}`);
  return found[0];
}

/** The text of an element that holds only text. */
export function textOf(el: Element): string {
  let text = "";
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== TEXT && c.nodeType !== CDATA) refuse(`${el.localName} must hold text only`);
    text += c.nodeValue ?? "";
  }
  return text.trim();
}

/** Whether `el` is `localName` in `ns`. */
export function isElement(el: Element | null | undefined, ns: string, localName: string): el is Element {
  return !!el && el.namespaceURI === ns && el.localName === localName;
}
