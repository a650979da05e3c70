import { z } from "zod";

/** An attribute sent to a provider: `from` names a catalog attribute, or "groups" (the person's group ids), or "rights" (the rights they hold on this application). */
export const ZAttributeRule = z.strictObject({
  name: z.string().min(1).max(256),
  from: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "an attribute of the catalog, groups or rights"),
  friendlyName: z.string().min(1).max(128).optional(),
  nameFormat: z.enum(["basic", "uri", "unspecified"]).optional(),
});

/**
 * A service provider in the import document: its metadata (inline or a file beside the document),
 * or its settings by hand. The id is the application's id here (the console, events and consents
 * name it); the entity ID comes from the metadata.
 */
export const ZSamlSpImport = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' and '-', up to 64"),
    name: z.string().min(1).max(200),
    metadataXml: z.string().max(512 * 1024).optional(),
    metadataFile: z.string().min(1).max(1000).optional(),
    /** Fetched at import (https; a private address only where IDP_OUTBOUND_ALLOW allows it). */
    metadataUrl: z.string().min(1).max(2000).optional(),
    entityId: z.string().min(1).max(1024).optional(),
    acsUrls: z.array(z.string().max(2000)).min(1).max(20).optional(),
    signingCerts: z.array(z.string().max(16_384)).max(5).optional(),
    /** By hand: where logout messages go (HTTP-Redirect binding). */
    singleLogoutUrl: z.string().max(2000).optional(),
    /** Signed AuthnRequests are required unless this is false (then only a request with no signature at all is let through). */
    requireSignedRequests: z.boolean().default(true),
    nameIdFormat: z.enum(["persistent", "email", "transient", "unspecified"]).optional(),
    /** Encrypt assertions to the provider's encryption certificate: by default when its metadata gives one. */
    assertionEncryption: z.enum(["aes256-gcm", "aes128-gcm", "off"]).optional(),
    /** People may start a sign-in to it from here (the portal's application list); off unless said. */
    allowIdpInitiated: z.boolean().default(false),
    /** Where the provider lands a person after such a sign-in (its RelayState), when it needs one. */
    defaultRelayState: z.string().max(1024).optional(),
    /** The attributes it is sent; without it, email (once confirmed), given_name and family_name. */
    attributes: z.array(ZAttributeRule).max(50).optional(),
    /** By hand: the certificate to encrypt assertions to (PEM). */
    encryptionCert: z.string().max(16_384).optional(),
  })
  .refine((s) => [s.metadataXml, s.metadataFile, s.metadataUrl, s.entityId].filter((v) => v !== undefined).length === 1, "give exactly one of metadataXml, metadataFile, metadataUrl or entityId (with acsUrls)")
  .refine((s) => s.entityId === undefined || s.acsUrls !== undefined, { message: "acsUrls is required with entityId", path: ["acsUrls"] });
export type TSamlSpImport = z.infer<typeof ZSamlSpImport>;

/** A provider added in the console from its metadata. */
export const ZSamlSpCreate = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' and '-', up to 64"),
    name: z.string().trim().min(1).max(200),
    metadataXml: z.string().min(1).max(512 * 1024).optional(),
    metadataUrl: z.string().trim().min(1).max(2000).optional(),
    requireSignedRequests: z.boolean().default(true),
    allowIdpInitiated: z.boolean().default(false),
  })
  .refine((s) => (s.metadataXml === undefined) !== (s.metadataUrl === undefined), { message: "give the metadata or the URL it is published at", path: ["metadataXml"] });
export type TSamlSpCreate = z.infer<typeof ZSamlSpCreate>;
