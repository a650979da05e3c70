import { sign as signBytes, verify as verifySignature } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { AppError } from "../../errors/app-error.ts";
import { ALG } from "../xml/dsig.ts";

/*
 * The HTTP-Redirect binding (SAML bindings §3.4): the message deflated, base64'd and URL-encoded in
 * the query, signed (when signed) over the query's own octets as sent, not over the XML. So the raw
 * parameter values are kept beside the decoded ones: re-encoding them could change a byte the
 * signature covers.
 */

export type TMessageKind = "SAMLRequest" | "SAMLResponse";

export type TRedirectMessage = {
  kind: TMessageKind;
  xml: string;
  relayState: string | undefined;
  /**
   * The signature, when the sender signed, and the octets it may cover; not yet verified. The
   * binding signs the query as sent; some senders (node-saml among them) sign the values encoded
   * once more by their own rule, then send another encoding of the same values. Both readings carry
   * exactly the decoded values we act on, so accepting either lets nothing else through.
   */
  signature: { sigAlg: string; octets: string[]; value: Buffer } | undefined;
};

// Inflated size limit: a few kilobytes of deflated data can expand a thousandfold.
const MAX_INFLATED = 128 * 1024;
const HASH_OF: Readonly<Record<string, string>> = { [ALG.rsaSha256]: "sha256", [ALG.rsaSha512]: "sha512" };

function refuse(reason: string): never {
  throw new AppError("saml.xml_refused", { desc: `the SAML document is not accepted: ${reason}` });
}

function decodeComponent(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return refuse("malformed percent-encoding");
  }
}

/** Each parameter once, as sent (raw) and decoded; a repeated one is refused (which copy would count?). */
function collectParams(search: string): Map<string, { raw: string; value: string }> {
  const params = new Map<string, { raw: string; value: string }>();
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const name = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const raw = eq < 0 ? "" : part.slice(eq + 1);
    if (params.has(name)) refuse(`${name} is repeated`);
    params.set(name, { raw, value: decodeComponent(raw.replace(/\+/g, " ")) });
  }
  return params;
}

function base64Strict(text: string): Buffer {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 !== 0) refuse("not base64");
  return Buffer.from(clean, "base64");
}

function inflate(deflated: Buffer): string {
  try {
    return inflateRawSync(deflated, { maxOutputLength: MAX_INFLATED }).toString("utf8");
  } catch {
    return refuse("not a deflated message, or too large once inflated");
  }
}

/** The message in a Redirect-binding query (`search`, as received), not yet verified. */
export function decodeRedirect(search: string, kind: TMessageKind): TRedirectMessage {
  const params = collectParams(search);
  const message = params.get(kind) ?? refuse(`${kind} is missing`);
  // The raw value, decoded without the form rule that turns "+" into a space: base64 uses "+".
  const xml = inflate(base64Strict(decodeComponent(message.raw)));
  const relayState = params.get("RelayState");
  const sig = params.get("Signature");
  const sigAlg = params.get("SigAlg");
  if (!sig !== !sigAlg) refuse("Signature and SigAlg come together");
  const signedPart = (encode: (p: { raw: string; value: string }) => string) =>
    [`${kind}=${encode(message)}`, ...(relayState ? [`RelayState=${encode(relayState)}`] : []), ...(sigAlg ? [`SigAlg=${encode(sigAlg)}`] : [])].join("&");
  const asSent = signedPart((p) => p.raw);
  const reEncoded = signedPart((p) => encodeURIComponent(p === message ? decodeComponent(p.raw) : p.value));
  return {
    kind,
    xml,
    relayState: relayState?.value,
    signature: sig && sigAlg ? { sigAlg: sigAlg.value, octets: asSent === reEncoded ? [asSent] : [asSent, reEncoded], value: base64Strict(decodeComponent(sig.raw)) } : undefined,
  };
}

/** Whether one of `certificates` (PEM) made the message's query signature; refused when unsigned or otherwise. */
export function verifyRedirectSignature(message: TRedirectMessage, certificates: readonly string[]): void {
  const fail = (reason: string): never => {
    throw new AppError("saml.signature_invalid", { desc: `the SAML message's signature does not verify: ${reason}` });
  };
  const signature = message.signature ?? fail("not signed");
  const hash = HASH_OF[signature.sigAlg] ?? fail("signature algorithm not accepted");
  for (const certificate of certificates) {
    for (const octets of signature.octets) {
      try {
        if (verifySignature(hash, Buffer.from(octets, "utf8"), certificate, signature.value)) return;
      } catch {
        // A certificate that cannot be read as a key is one that did not make this signature.
      }
    }
  }
  fail("no registered key made this signature");
}

/**
 * `location` with the message in its query, signed with `key` (RSA-SHA256) over the octets as
 * written, the way a receiver of the Redirect binding checks them.
 */
export function encodeRedirect(location: string, kind: TMessageKind, xml: string, relayState: string | undefined, key: { privateKeyPem: string }): string {
  const parts = [`${kind}=${encodeURIComponent(deflateRawSync(Buffer.from(xml, "utf8")).toString("base64"))}`];
  if (relayState !== undefined) parts.push(`RelayState=${encodeURIComponent(relayState)}`);
  parts.push(`SigAlg=${encodeURIComponent(ALG.rsaSha256)}`);
  const octets = parts.join("&");
  const signature = signBytes("sha256", Buffer.from(octets, "utf8"), key.privateKeyPem).toString("base64");
  return `${location}${location.includes("?") ? "&" : "?"}${octets}&Signature=${encodeURIComponent(signature)}`;
}
