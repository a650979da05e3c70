import { deflateRawSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors/app-error.ts";
import { makeSpKeys, newServiceProvider, type TSpKeys } from "../../../test/support/saml-sp.ts";
import { decodeRedirect, verifyRedirectSignature } from "./redirect.ts";

// Redirect-binding requests made by @node-saml/node-saml, whose signature covers the query's octets.

let sp: TSpKeys;
let other: TSpKeys;

const search = async (keys: TSpKeys, relayState = "back to /reports?x=1&y=2", sigAlg: "sha256" | "sha1" = "sha256") => {
  const saml = newServiceProvider({ entityId: "https://sp.test/metadata", acsUrl: "https://sp.test/acs", entryPoint: "https://idp.test/idp/saml/sso", keys, signatureAlgorithm: sigAlg });
  return new URL(await saml.getAuthorizeUrlAsync(relayState, undefined, {})).search;
};

const outcome = (query: string, certs: string[]) => {
  try {
    verifyRedirectSignature(decodeRedirect(query, "SAMLRequest"), certs);
    return "verified";
  } catch (e) {
    if (e instanceof AppError) return `${e.code}: ${e.message}`;
    throw e;
  }
};

beforeAll(() => {
  sp = makeSpKeys("sp.test");
  other = makeSpKeys("other.test");
});

describe("the Redirect binding", () => {
  it("inflates the request, keeps the relay state and verifies node-saml's signature", async () => {
    const query = await search(sp);
    const message = decodeRedirect(query, "SAMLRequest");
    expect(message.xml).toMatch(/^<\?xml version="1.0"\?><samlp:AuthnRequest /);
    expect(message.relayState).toBe("back to /reports?x=1&y=2");
    expect(outcome(query, [other.cert, sp.cert])).toBe("verified");
  });

  it("refuses another SP's key, a changed relay state and SHA-1; the parameters' order is not what is signed", async () => {
    const query = await search(sp);
    expect(outcome(query, [other.cert])).toBe("saml.signature_invalid: the SAML message's signature does not verify: no registered key made this signature");
    expect(outcome(query.replace(/RelayState=[^&]*/, "RelayState=elsewhere"), [sp.cert])).toMatch(/no registered key/);
    const params = query.slice(1).split("&");
    const reordered = `?${[params[1], params[0], ...params.slice(2)].join("&")}`;
    // The binding fixes the order of the signed string, whatever order the query comes in.
    expect(outcome(reordered, [sp.cert])).toBe("verified");
    expect(outcome(await search(sp, "r", "sha1"), [sp.cert])).toMatch(/signature algorithm not accepted/);
  });

  it("refuses an unsigned request, a repeated parameter and a signature without its algorithm", async () => {
    const query = await search(sp);
    const unsigned = query.replace(/&SigAlg=[^&]*/, "").replace(/&Signature=[^&]*/, "");
    expect(outcome(unsigned, [sp.cert])).toMatch(/not signed$/);
    expect(outcome(`${query}&RelayState=second`, [sp.cert])).toMatch(/saml.xml_refused: .*RelayState is repeated/);
    expect(outcome(query.replace(/&SigAlg=[^&]*/, ""), [sp.cert])).toMatch(/Signature and SigAlg come together/);
  });

  it("refuses what is not base64, not deflated, or inflates past the limit", () => {
    expect(outcome("?SAMLRequest=%%%", [sp.cert])).toMatch(/malformed percent-encoding/);
    expect(outcome("?SAMLRequest=not*base64", [sp.cert])).toMatch(/not base64/);
    expect(outcome(`?SAMLRequest=${encodeURIComponent(Buffer.from("<a/>").toString("base64"))}`, [sp.cert])).toMatch(/not a deflated message/);
    const bomb = deflateRawSync(Buffer.from(`<a>${"x".repeat(1024 * 1024)}</a>`));
    expect(bomb.length).toBeLessThan(4096);
    expect(outcome(`?SAMLRequest=${encodeURIComponent(bomb.toString("base64"))}`, [sp.cert])).toMatch(/too large once inflated/);
  });
});
