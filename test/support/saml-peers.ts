import { sign } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import type { SAML } from "@node-saml/node-saml";
import { type Browser, formOf, type TPage } from "./browser.ts";
import type { TSpKeys } from "./saml-sp.ts";

/*
 * What a browser does between a node-saml service provider and the identity provider: carry the
 * request there, and post the response form back. And hand-made requests, for what node-saml will
 * not send (a stale one, one with a DOCTYPE), signed over the Redirect binding's octets.
 */

export const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol";
export const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion";

/** The auto-posting page's form: where it posts and the SAMLResponse and RelayState it carries. */
export function postedResponse(page: TPage): { action: string; SAMLResponse: string; RelayState?: string; xml: string } {
  if (page.status !== 200) throw new Error(`no response page: ${page.status} ${page.location ?? ""}\n${page.text.slice(0, 400)}`);
  const form = formOf(page.text);
  const SAMLResponse = form.hidden.SAMLResponse;
  if (!SAMLResponse) throw new Error(`no SAMLResponse on the page:\n${page.text.slice(0, 400)}`);
  return { action: form.action, SAMLResponse, RelayState: form.hidden.RelayState, xml: Buffer.from(SAMLResponse, "base64").toString("utf8") };
}

/** What node-saml makes of a posted response: its profile, or the error it refused it with. */
export async function spReads(sp: SAML, posted: { SAMLResponse: string }): Promise<{ profile?: Record<string, unknown>; error?: string }> {
  try {
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    return { profile: profile as unknown as Record<string, unknown> };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A minimal AuthnRequest, with overrides for what a test changes. */
export function authnRequestXml(o: { id: string; issuer: string; destination: string; acsUrl?: string; issueInstant?: Date; extra?: string; prolog?: string }): string {
  const acs = o.acsUrl ? ` AssertionConsumerServiceURL="${o.acsUrl}"` : "";
  return `${o.prolog ?? ""}<samlp:AuthnRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${o.id}" Version="2.0" IssueInstant="${(o.issueInstant ?? new Date()).toISOString()}" Destination="${o.destination}"${acs}><saml:Issuer>${o.issuer}</saml:Issuer>${o.extra ?? ""}</samlp:AuthnRequest>`;
}

/** The Redirect binding's query for `xml`, signed with `keys` unless none are given. */
export function redirectQuery(xml: string, keys?: TSpKeys, relayState?: string): string {
  let q = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString("base64"))}`;
  if (relayState !== undefined) q += `&RelayState=${encodeURIComponent(relayState)}`;
  if (!keys) return q;
  q += `&SigAlg=${encodeURIComponent("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")}`;
  return `${q}&Signature=${encodeURIComponent(sign("sha256", Buffer.from(q), keys.key).toString("base64"))}`;
}

/** Posts an HTTP-POST binding request as a browser would (cross-site: the POST carries no cookie the service set with SameSite=Lax). */
export async function postRequest(browser: Browser, ssoUrl: string, samlRequest: string, relayState?: string): Promise<TPage> {
  const body = new URLSearchParams({ SAMLRequest: samlRequest, ...(relayState !== undefined ? { RelayState: relayState } : {}) }).toString();
  const saved = new Map(browser.cookies);
  browser.cookies.clear();
  const first = await browser.fetch(ssoUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  for (const [k, v] of saved) if (!browser.cookies.has(k)) browser.cookies.set(k, v);
  return first;
}
