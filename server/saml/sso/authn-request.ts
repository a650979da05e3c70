import { AppError } from "../../errors/app-error.ts";
import { decodeIncoming, type TIncomingMessage } from "../bindings/incoming.ts";
import { instantOf, issuedInWindow, replayGuardUntil } from "../bindings/message-window.ts";
import { idpEndpoint, NAME_ID_FORMAT } from "../metadata/idp-metadata.ts";
import type { TNameIdFormatName } from "../sps/sp-metadata.ts";
import { getSpByEntityId, type TServiceProvider } from "../sps/service-providers.service.ts";
import { attributeOf, NS, onlyChild, textOf } from "../xml/strict-xml.ts";
import { demandOf } from "./authn-context.ts";

/*
 * An AuthnRequest, read and checked as SAML core §3.4 and the bindings ask: decoded, parsed strictly,
 * its issuer a registered and enabled service provider, signed by that provider's key (unless the
 * provider is let off), addressed to us, recent, and its assertion consumer service one the provider
 * registered. Nothing is sent to any URL until all of that holds: failures are shown as a page.
 */

export type TSamlAuthn = {
  spId: string;
  requestId: string;
  acsUrl: string;
  relayState?: string;
  forceAuthn: boolean;
  isPassive: boolean;
  nameIdFormat: TNameIdFormatName | "unsupported";
  /** What RequestedAuthnContext asks, as the OIDC side's acr_values; "unsatisfiable" when we cannot meet it. */
  acrValues: string[] | "unsatisfiable" | undefined;
  /** When the request stops being acceptable (its ID is remembered until then). */
  expiresAt: string;
};

const refuse = (code: "saml.request_invalid" | "saml.acs_not_registered" | "saml.unknown_sp" | "saml.signature_invalid", desc: string): never => {
  throw new AppError(code, { desc });
};

function issuerOf(root: Element): string {
  const issuer = onlyChild(root, NS.assertion, "Issuer");
  return issuer ? textOf(issuer) : refuse("saml.request_invalid", "the request names no Issuer");
}

/** The registered HTTP-POST endpoint the response goes to: by URL (exactly), by index, or the default. */
function acsOf(root: Element, sp: TServiceProvider): string {
  const binding = attributeOf(root, "ProtocolBinding");
  if (binding && binding !== "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST") refuse("saml.request_invalid", "responses are sent only with the HTTP-POST binding");
  const url = attributeOf(root, "AssertionConsumerServiceURL");
  const index = attributeOf(root, "AssertionConsumerServiceIndex");
  if (url !== null) return sp.acs.find((a) => a.location === url)?.location ?? refuse("saml.acs_not_registered", "the AssertionConsumerServiceURL is not one the service provider registered");
  if (index !== null) return sp.acs.find((a) => String(a.index) === index)?.location ?? refuse("saml.acs_not_registered", "the AssertionConsumerServiceIndex is not one the service provider registered");
  return (sp.acs.find((a) => a.isDefault) ?? sp.acs[0]!).location;
}

function nameIdFormatOf(root: Element, sp: TServiceProvider): TSamlAuthn["nameIdFormat"] {
  const format = onlyChild(root, NS.protocol, "NameIDPolicy")?.getAttribute("Format");
  if (!format || format === NAME_ID_FORMAT.unspecified) return sp.nameIdFormat;
  const found = (Object.entries(NAME_ID_FORMAT) as [TNameIdFormatName, string][]).find(([, uri]) => uri === format);
  return found ? found[0] : "unsupported";
}

function checkTimeAndPlace(root: Element, now: number, signed: boolean): void {
  if (root.getAttribute("Version") !== "2.0") refuse("saml.request_invalid", "only SAML 2.0 requests are accepted");
  const id = root.getAttribute("ID") ?? "";
  if (!id || id.length > 256) refuse("saml.request_invalid", "the request's ID is missing or too long");
  const issueInstant = root.getAttribute("IssueInstant");
  if (!Number.isFinite(instantOf(issueInstant))) refuse("saml.request_invalid", "the request's IssueInstant is missing or has no time zone");
  if (!issuedInWindow(issueInstant, now)) refuse("saml.request_invalid", "the request is too old, or from the future: check the service provider's clock");
  // A signed request must name us (bindings §3.4.5.2, §3.5.5.2): else one signed for another identity
  // provider that trusts the same key could be replayed here.
  const destination = attributeOf(root, "Destination");
  if (destination === null ? signed : destination !== idpEndpoint("sso")) refuse("saml.request_invalid", "the request is addressed to another endpoint, or a signed one names none");
}

/** The request, verified; throws the page's error otherwise. The caller remembers its ID (replay). */
export async function readAuthnRequest(input: TIncomingMessage, now = Date.now()): Promise<TSamlAuthn & { sp: TServiceProvider }> {
  const decoded = decodeIncoming(input, "SAMLRequest", { ns: NS.protocol, localName: "AuthnRequest" });
  const sp = await getSpByEntityId(issuerOf(decoded.unverified));
  if (!sp || !sp.enabled) return refuse("saml.unknown_sp", "the service provider is not registered here, or is switched off");
  const root = decoded.verified(sp.signingCerts, sp.requireSignedRequests);
  // After a POST signature check, the element read is the signed one: its issuer must be the same.
  if (issuerOf(root) !== sp.entityId) refuse("saml.signature_invalid", "the signed request names another issuer");
  checkTimeAndPlace(root, now, decoded.signed);
  const requested = onlyChild(root, NS.protocol, "RequestedAuthnContext");
  return {
    sp,
    spId: sp.id,
    requestId: root.getAttribute("ID")!,
    acsUrl: acsOf(root, sp),
    relayState: decoded.relayState?.slice(0, 1024),
    forceAuthn: root.getAttribute("ForceAuthn") === "true",
    isPassive: root.getAttribute("IsPassive") === "true",
    nameIdFormat: nameIdFormatOf(root, sp),
    acrValues: requested ? demandOf(requested) : undefined,
    expiresAt: replayGuardUntil(now).toISOString(),
  };
}
