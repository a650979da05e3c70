import { z } from "zod";

/** An attribute sent to a provider: `from` names a catalog attribute, or "groups" (the person's group ids), or "rights" (the rights they hold on this application). */
export const ZAttributeRule = z.strictObject({
  name: z.string().min(1).max(256),
  from: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "an attribute of the catalog, groups or rights"),
  friendlyName: z.string().min(1).max(128).optional(),
  nameFormat: z.enum(["basic", "uri", "unspecified"]).optional(),
});

const ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' and '-', up to 64");

/** Where a provider's endpoints and keys come from (one of them), and what is done for it. */
const SETTINGS = {
  metadataXml: z.string().min(1).max(512 * 1024).optional(),
  /** Fetched when saved (https; a private address only where IDP_OUTBOUND_ALLOW allows it). */
  metadataUrl: z.string().trim().min(1).max(2000).optional(),
  /** By hand instead of metadata: the entity ID, with acsUrls (the first is the default). */
  entityId: z.string().trim().min(1).max(1024).optional(),
  acsUrls: z.array(z.string().trim().max(2000)).min(1).max(20).optional(),
  signingCerts: z.array(z.string().max(16_384)).max(5).optional(),
  /** By hand: where logout messages go (HTTP-Redirect binding). */
  singleLogoutUrl: z.string().trim().max(2000).optional(),
  /** By hand: the certificate to encrypt assertions to (PEM). */
  encryptionCert: z.string().max(16_384).optional(),
  /** Signed AuthnRequests are required unless this is false (then only a request with no signature at all is let through). */
  requireSignedRequests: z.boolean().default(true),
  nameIdFormat: z.enum(["persistent", "email", "transient", "unspecified"]).optional(),
  /** Encrypt assertions to the provider's encryption certificate: by default when its metadata gives one. */
  assertionEncryption: z.enum(["aes256-gcm", "aes128-gcm", "off"]).optional(),
  /** People may start a sign-in to it from here (the portal's application list); off unless said. */
  allowIdpInitiated: z.boolean().default(false),
  /** People allow what it is sent on a consent page first, and see it among their consents; off unless said (the organisation chose the application). */
  askConsent: z.boolean().default(false),
  /** Where the provider lands a person after such a sign-in (its RelayState), when it needs one. */
  defaultRelayState: z.string().max(1024).optional(),
  /** The attributes it is sent; without it, email (once confirmed), given_name and family_name. */
  attributes: z.array(ZAttributeRule).max(50).optional(),
};

const ONE_SOURCE = ["metadataXml", "metadataFile", "metadataUrl", "entityId"] as const;
type TSourced = Partial<Record<(typeof ONE_SOURCE)[number], unknown>> & { entityId?: string; acsUrls?: string[] };
const oneSource = (s: TSourced) => ONE_SOURCE.filter((k) => s[k] !== undefined).length === 1;
const acsWithEntityId = (s: TSourced) => s.entityId === undefined || s.acsUrls !== undefined;

/**
 * A service provider in the import document: its metadata (inline, a file beside the document, or
 * a URL), or its settings by hand. The id is the application's id here (the console, events and
 * consents name it); the entity ID comes from the metadata.
 */
export const ZSamlSpImport = z
  .strictObject({ id: ID, name: z.string().min(1).max(200), metadataFile: z.string().min(1).max(1000).optional(), ...SETTINGS })
  .refine(oneSource, "give exactly one of metadataXml, metadataFile, metadataUrl or entityId (with acsUrls)")
  .refine(acsWithEntityId, { message: "acsUrls is required with entityId", path: ["acsUrls"] });
export type TSamlSpImport = z.infer<typeof ZSamlSpImport>;

/** What a provider's settings are, wherever they come from (the file the import reads is metadataXml by then). */
export type TSamlSpSettings = Omit<TSamlSpImport, "id" | "name" | "metadataFile">;

/** A provider added or saved in the console: the same settings, metadata pasted, fetched or none (by hand). */
export const ZSamlSpCreate = z
  .strictObject({ id: ID, name: z.string().trim().min(1).max(200), ...SETTINGS })
  .refine(oneSource, { message: "give the metadata, the URL it is published at, or the entity ID", path: ["metadataXml"] })
  .refine(acsWithEntityId, { message: "at least one assertion consumer service URL is required", path: ["acsUrls"] });
export type TSamlSpCreate = z.infer<typeof ZSamlSpCreate>;
