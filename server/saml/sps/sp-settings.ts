import { AppError } from "../../errors/app-error.ts";
import { BINDING } from "../metadata/idp-metadata.ts";
import { certificatePem, isAllowedEndpoint, parseSpMetadata, type TSpMetadata } from "./sp-metadata.ts";
import { fetchSpMetadata } from "./sp-metadata-fetch.ts";
import type { TServiceProviderWrite } from "./service-providers.repository.ts";
import type { TSamlSpSettings } from "./service-providers.schemas.ts";

/*
 * A service provider as it will be stored, from what the import document or the console gives:
 * its metadata (pasted, fetched, or read from a file by the caller) or its settings typed by hand,
 * and the options. Every refusal names the field it is about, so the import can say where in the
 * document and the console can put it beside the field.
 */

/** Refuses one field: saml.metadata_invalid, with the field as the item's position. */
export function settingRefused(field: string, desc: string): never {
  throw new AppError("saml.metadata_invalid", { desc, items: [{ error: "wrong_value", desc, pos: field }] });
}

/** Why the metadata was refused, without the code's own preamble. */
const reasonOf = (e: AppError) => e.message.replace(/^.*?: /, "");

function pemAt(text: string, field: string): string {
  try {
    return certificatePem(text);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return settingRefused(field, `must be an RSA certificate (PEM or base64 DER) of at least 2048 bits: ${reasonOf(e)}`);
  }
}

const endpointAt = (location: string, field: string) => (isAllowedEndpoint(location) ? location : settingRefused(field, "must be https (http only on loopback)"));

/** The metadata that settings typed by hand amount to. */
function handMetadata(e: TSamlSpSettings & { entityId: string; acsUrls: string[] }): TSpMetadata {
  const acs = e.acsUrls.map((location, index) => ({ index, location: endpointAt(location, `acsUrls.${index}`), isDefault: index === 0 }));
  const signingCerts = (e.signingCerts ?? []).map((c, i) => pemAt(c, `signingCerts.${i}`));
  const encryptionCert = e.encryptionCert === undefined ? undefined : pemAt(e.encryptionCert, "encryptionCert");
  const slo = e.singleLogoutUrl === undefined ? [] : [{ binding: BINDING.redirect, location: endpointAt(e.singleLogoutUrl, "singleLogoutUrl") }];
  return { entityId: e.entityId, acs, slo, signingCerts, encryptionCert, assertionCipher: encryptionCert ? "aes256-gcm" : undefined, authnRequestsSigned: signingCerts.length > 0 };
}

export type TSpSource = { md: TSpMetadata; xml: string | null; url: string | null };

/** Metadata text read into what is kept; a refusal names `field`. */
export function readMetadataAt(xml: string, field: string, url: string | null = null): TSpSource {
  try {
    return { md: parseSpMetadata(xml), xml, url };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return settingRefused(field, e.message);
  }
}

/** The provider's metadata from the settings: typed by hand, pasted, or fetched from its URL (under the outbound rules). */
export async function sourceOf(e: TSamlSpSettings): Promise<TSpSource> {
  if (e.entityId !== undefined) return { md: handMetadata({ ...e, entityId: e.entityId, acsUrls: e.acsUrls ?? [] }), xml: null, url: null };
  if (e.metadataUrl !== undefined) {
    let xml: string;
    try {
      xml = await fetchSpMetadata(e.metadataUrl);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return settingRefused("metadataUrl", err.message);
    }
    return readMetadataAt(xml, "metadataUrl", e.metadataUrl);
  }
  return readMetadataAt(e.metadataXml ?? "", "metadataXml");
}

/** The row to store: the metadata's endpoints and keys with the options, checked against each other. */
export function spWriteOf(id: string, name: string, e: TSamlSpSettings, { md, xml, url }: TSpSource): TServiceProviderWrite {
  if (e.requireSignedRequests && md.signingCerts.length === 0) {
    settingRefused("requireSignedRequests", "signed requests are required, but no signing certificate is given (turn this off to accept unsigned ones)");
  }
  const encryption = e.assertionEncryption ?? md.assertionCipher ?? "off";
  if (encryption !== "off" && !md.encryptionCert) settingRefused("assertionEncryption", "assertions cannot be encrypted: no encryption certificate is given");
  return {
    id,
    name,
    entityId: md.entityId,
    acs: md.acs,
    slo: md.slo,
    signingCerts: md.signingCerts,
    encryptionCert: md.encryptionCert ?? null,
    assertionEncryption: encryption,
    requireSignedRequests: e.requireSignedRequests,
    nameIdFormat: e.nameIdFormat ?? md.nameIdFormat ?? "persistent",
    allowIdpInitiated: e.allowIdpInitiated,
    askConsent: e.askConsent,
    defaultRelayState: e.defaultRelayState ?? null,
    attributeMap: e.attributes ?? [],
    metadataXml: xml,
    metadataUrl: url,
  };
}
