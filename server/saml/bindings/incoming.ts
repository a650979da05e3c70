import { AppError } from "../../errors/app-error.ts";
import { verifyEnveloped } from "../xml/dsig.ts";
import { isElement, NS, parseStrictXml } from "../xml/strict-xml.ts";
import { decodeRedirect, verifyRedirectSignature, type TMessageKind } from "./redirect.ts";

/*
 * A SAML protocol message as either binding delivers it (a request or a response, from a service
 * provider), decoded and parsed but not yet trusted: the caller finds the sender from the unsigned
 * Issuer, then asks for the root element verified against that sender's certificates, and reads
 * only that.
 */

export type TIncomingMessage = { binding: "redirect"; search: string } | { binding: "post"; message: string; relayState?: string };

export type TDecodedMessage = {
  /** The root as received: only for finding the sender. */
  unverified: Element;
  relayState?: string;
  signed: boolean;
  /** The root, verified against `certificates`; unsigned passes only when `required` is false. */
  verified(certificates: readonly string[], required: boolean): Element;
};

const MAX_MESSAGE = 64 * 1024;

export function decodeIncoming(input: TIncomingMessage, kind: TMessageKind, root: { ns: string; localName: string }): TDecodedMessage {
  const unsignedRefused = (): never => {
    throw new AppError("saml.signature_invalid", { desc: "this service provider must sign its messages" });
  };
  if (input.binding === "redirect") {
    const message = decodeRedirect(input.search, kind);
    const doc = parseStrictXml(message.xml, { maxBytes: MAX_MESSAGE });
    if (!isElement(doc.documentElement, root.ns, root.localName)) throw new AppError("saml.request_invalid", { desc: `the message is not a ${root.localName}` });
    // The Redirect binding signs the query; a signature inside the XML is not how it is sent (§3.4.4.1).
    if (doc.getElementsByTagNameNS(NS.dsig, "Signature").length) throw new AppError("saml.signature_invalid", { desc: "the Redirect binding carries its signature in the query, not in the XML" });
    return {
      unverified: doc.documentElement,
      relayState: message.relayState,
      signed: message.signature !== undefined,
      verified: (certificates, required) => {
        if (message.signature) verifyRedirectSignature(message, certificates);
        else if (required) unsignedRefused();
        return doc.documentElement;
      },
    };
  }
  const xml = Buffer.from(input.message.replace(/\s+/g, ""), "base64").toString("utf8");
  const doc = parseStrictXml(xml, { maxBytes: MAX_MESSAGE });
  if (!isElement(doc.documentElement, root.ns, root.localName)) throw new AppError("saml.request_invalid", { desc: `the message is not a ${root.localName}` });
  const signed = doc.getElementsByTagNameNS(NS.dsig, "Signature").length > 0;
  return {
    unverified: doc.documentElement,
    relayState: input.relayState,
    signed,
    verified: (certificates, required) => {
      if (signed) return verifyEnveloped(xml, certificates, { ...root, limits: { maxBytes: MAX_MESSAGE }, after: { ns: NS.assertion, localName: "Issuer" } });
      if (required) unsignedRefused();
      return doc.documentElement;
    },
  };
}
