import { z } from "zod";

// An LDAP attribute description (RFC 4512 §2.5): a letter, then letters, digits and hyphens.
const LDAP_ATTRIBUTE = z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, "an LDAP attribute name");

/** A directory attribute copied into an attribute of the catalog, with what it needs on the way. */
export const ZDirectoryAttributeRule = z.strictObject({
  from: LDAP_ATTRIBUTE,
  to: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "an attribute of the catalog"),
  /** email: trimmed, lower-cased; phone: digits with the country code, as the catalog keeps phones; lowercase. */
  transform: z.enum(["email", "phone", "lowercase"]).optional(),
  /** For an e-mail or phone: the directory vouches for it (marked confirmed). Off unless said: people may be able to edit their own entry there. */
  verified: z.boolean().default(false),
});
export type TDirectoryAttributeRule = z.infer<typeof ZDirectoryAttributeRule>;

const ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, '.', '_' and '-', up to 64");
const CA_CERT = z.string().max(65_536);

/** A directory's settings, wherever they are given (the import document, the console); the id, the CA and the bind password apart. */
const SETTINGS = {
  name: z.string().trim().min(1).max(200),
  enabled: z.boolean().default(true),
  /** ldaps://host[:port], or ldap://host[:port] (StartTLS unless startTls is false, which only a loopback address may be). */
  url: z.string().trim().min(1).max(500),
  startTls: z.boolean().default(true),
  bindDn: z.string().trim().min(1).max(1024),
  baseDn: z.string().trim().min(1).max(1024),
  userFilter: z.string().trim().min(1).max(1024).default("(objectClass=inetOrgPerson)"),
  loginAttribute: LDAP_ATTRIBUTE.default("uid"),
  idAttribute: LDAP_ATTRIBUTE.default("entryUUID"),
  disabledFilter: z.string().trim().min(1).max(1024).optional(),
  attributes: z.array(ZDirectoryAttributeRule).max(50).default([]),
  mode: z.enum(["on_demand", "synchronised"]).default("on_demand"),
  /** Synchronised: seconds between incremental runs (0: only when asked); a full run follows a day after the last. */
  syncIntervalS: z.number().int().min(0).max(7 * 86_400).default(900),
  /** What an entry gone from the directory makes of its account. */
  missingPolicy: z.enum(["lock", "delete", "keep"]).default("lock"),
  /** What an incremental run asks for changes by: modifyTimestamp (LDAP), uSNChanged (Active Directory). */
  changeAttribute: z.enum(["modifyTimestamp", "uSNChanged"]).default("modifyTimestamp"),
};

/**
 * A directory in the import document. The id names it in events and the console; the bind
 * password is sealed when stored and never shown again.
 */
export const ZDirectoryImport = z.strictObject({
  id: ID,
  ...SETTINGS,
  /** PEM: the certificates the directory's TLS certificate must chain to (else the system's). */
  caCert: CA_CERT.optional(),
  bindPassword: z.string().min(1).max(1024),
});
export type TDirectoryImport = z.infer<typeof ZDirectoryImport>;

/**
 * A directory added, saved or tested in the console. The browser never has the stored bind password
 * or CA: an empty bindPassword keeps the stored one (a new directory must have one), and caCert left
 * out keeps the stored CA, null removes it, text replaces it.
 */
export const ZDirectoryConsole = z.strictObject({
  id: ID,
  ...SETTINGS,
  caCert: CA_CERT.nullable().optional(),
  bindPassword: z.string().max(1024).default(""),
});
export type TDirectoryConsole = z.infer<typeof ZDirectoryConsole>;

/** What a directory's settings are once the id, the CA and the password are settled. */
export type TDirectorySettings = Omit<TDirectoryImport, "id" | "bindPassword" | "caCert">;
