import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

/*
 * The SAML application form's values: text as typed (lists one per line, certificates as PEM
 * blocks), and the conversions to the call's input and from the settings as saved.
 */

export type TSpInput = inferRouterInputs<AppRouter>["console"]["samlSps"]["create"];
type TSpSettings = inferRouterOutputs<AppRouter>["console"]["samlSps"]["get"];

export type TSource = "metadata" | "url" | "hand";
export type TRuleValues = { name: string; from: string; friendlyName: string; nameFormat: "" | "basic" | "uri" | "unspecified" };

export type TSpValues = {
  id: string;
  name: string;
  source: TSource;
  metadataXml: string;
  metadataUrl: string;
  entityId: string;
  acsUrls: string;
  signingCerts: string;
  singleLogoutUrl: string;
  encryptionCert: string;
  requireSignedRequests: boolean;
  allowIdpInitiated: boolean;
  askConsent: boolean;
  /** "" keeps what the metadata says. */
  nameIdFormat: "" | "persistent" | "email" | "transient" | "unspecified";
  assertionEncryption: "" | "aes256-gcm" | "aes128-gcm" | "off";
  defaultRelayState: string;
  attributes: TRuleValues[];
};

export const EMPTY_VALUES: TSpValues = {
  id: "",
  name: "",
  source: "metadata",
  metadataXml: "",
  metadataUrl: "",
  entityId: "",
  acsUrls: "",
  signingCerts: "",
  singleLogoutUrl: "",
  encryptionCert: "",
  requireSignedRequests: true,
  allowIdpInitiated: false,
  askConsent: false,
  nameIdFormat: "",
  assertionEncryption: "",
  defaultRelayState: "",
  attributes: [],
};

export const EMPTY_RULE: TRuleValues = { name: "", from: "", friendlyName: "", nameFormat: "" };

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/** PEM blocks one after another, or one bare base64 certificate. */
function certificates(text: string): string[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (blocks) return blocks;
  return text.trim() ? [text.trim()] : [];
}

const optional = (text: string) => (text.trim() ? text.trim() : undefined);

export function toInput(v: TSpValues): TSpInput {
  const source =
    v.source === "url"
      ? { metadataUrl: v.metadataUrl.trim() }
      : v.source === "metadata"
        ? { metadataXml: v.metadataXml }
        : {
            entityId: v.entityId.trim(),
            acsUrls: lines(v.acsUrls),
            signingCerts: certificates(v.signingCerts),
            singleLogoutUrl: optional(v.singleLogoutUrl),
            encryptionCert: optional(v.encryptionCert),
          };
  return {
    id: v.id.trim(),
    name: v.name.trim(),
    ...source,
    requireSignedRequests: v.requireSignedRequests,
    allowIdpInitiated: v.allowIdpInitiated,
    askConsent: v.askConsent,
    nameIdFormat: v.nameIdFormat || undefined,
    assertionEncryption: v.assertionEncryption || undefined,
    defaultRelayState: optional(v.defaultRelayState),
    attributes: v.attributes
      .filter((r) => r.name.trim() || r.from.trim())
      .map((r) => ({ name: r.name.trim(), from: r.from.trim(), friendlyName: optional(r.friendlyName), nameFormat: r.nameFormat || undefined })),
  };
}

export function fromSettings(s: TSpSettings): TSpValues {
  return {
    ...EMPTY_VALUES,
    id: s.id,
    name: s.name,
    source: s.metadataUrl !== undefined ? "url" : s.metadataXml !== undefined ? "metadata" : "hand",
    metadataXml: s.metadataXml ?? "",
    metadataUrl: s.metadataUrl ?? "",
    entityId: s.entityId ?? "",
    acsUrls: (s.acsUrls ?? []).join("\n"),
    signingCerts: (s.signingCerts ?? []).join(""),
    singleLogoutUrl: s.singleLogoutUrl ?? "",
    encryptionCert: s.encryptionCert ?? "",
    requireSignedRequests: s.requireSignedRequests,
    allowIdpInitiated: s.allowIdpInitiated,
    askConsent: s.askConsent,
    nameIdFormat: s.nameIdFormat ?? "",
    assertionEncryption: s.assertionEncryption ?? "",
    defaultRelayState: s.defaultRelayState ?? "",
    attributes: (s.attributes ?? []).map((r) => ({ name: r.name, from: r.from, friendlyName: r.friendlyName ?? "", nameFormat: r.nameFormat ?? "" })),
  };
}
