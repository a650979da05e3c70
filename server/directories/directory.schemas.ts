import { z } from "zod";
import { ZProfileName } from "../groups/groups.schemas.ts";

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

/**
 * Which of the directory's groups become groups here, in which profile, and how their members are
 * read. `nesting`: `none` (direct members only), `expand` (a member that is itself a group of the
 * filter brings its members, followed here, cycles and depth bounded), `in_chain` (Active
 * Directory's LDAP_MATCHING_RULE_IN_CHAIN: the directory resolves nesting in the search).
 */
export const ZDirectoryGroups = z.strictObject({
  baseDn: z.string().trim().min(1).max(1024),
  // groupOfNames keeps its members in `member`, groupOfUniqueNames in `uniqueMember`: one filter, one member attribute.
  filter: z.string().trim().min(1).max(1024).default("(objectClass=groupOfNames)"),
  nameAttribute: LDAP_ATTRIBUTE.default("cn"),
  memberAttribute: LDAP_ATTRIBUTE.default("member"),
  nesting: z.enum(["none", "expand", "in_chain"]).default("none"),
  /** The group profile the groups get; made (with two attributes, name and dn) when there is none. */
  profile: ZProfileName.default("directory_groups"),
  /** Put before each group's name to make its id here; the directory's id and a dot when not said. */
  idPrefix: z.string().max(64).regex(/^[A-Za-z0-9._@+-]*$/, "letters, digits and . _ @ + -").optional(),
  /** The names of the directory's groups to map; all the filter finds when not said. */
  only: z.array(z.string().min(1).max(256)).max(1000).optional(),
});
export type TDirectoryGroups = z.infer<typeof ZDirectoryGroups>;

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
  /**
   * Password changes of its accounts through this service: off (changed in the directory only),
   * self (the person's own change, bound as them with their current password), or self_and_reset
   * (also an administrator's reset, written with the service's bind, which then needs that right).
   */
  passwordChange: z.enum(["off", "self", "self_and_reset"]).default("off"),
  /** How a password is written: LDAP's Password Modify operation (RFC 3062), or Active Directory's unicodePwd. */
  passwordProtocol: z.enum(["rfc3062", "active_directory"]).default("rfc3062"),
  /** Directory groups into groups and memberships here; not mapped when absent. */
  groups: ZDirectoryGroups.optional(),
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
