import { EqualityFilter, type Entry } from "ldapts";
import { normalizeEmail, normalizePhone } from "../attributes/attribute-values.ts";
import type { TDirectory } from "./directories.repository.ts";
import type { TDirectoryAttributeRule } from "./directory.schemas.ts";

/*
 * Directory entries read into what the service keeps: the stable id that finds the account again,
 * the login, and the catalog attributes the directory's rules map. Pure functions: the transforms
 * of Active Directory's and OpenLDAP's values are tested without a server.
 */

/** An attribute's values, whatever case the server spelled its name in; Buffers for binary ones. */
function valuesOf(entry: Entry, name: string): (string | Buffer)[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined || key === "dn" ? undefined : entry[key];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** Every value of an attribute as text (a group's members). */
export function textsOf(entry: Entry, name: string): string[] {
  return valuesOf(entry, name).map((v) => (typeof v === "string" ? v : v.toString("utf8")));
}

export function firstText(entry: Entry, name: string): string | undefined {
  const v = valuesOf(entry, name)[0];
  return v === undefined ? undefined : typeof v === "string" ? v : v.toString("utf8");
}

/**
 * Active Directory's objectGUID as people write it: the first three groups are little-endian on the
 * wire (so 16 bytes 33 22 11 00 55 44 77 66 88 99 … read as 00112233-4455-6677-8899-…).
 */
export function guidText(bytes: Buffer): string | undefined {
  if (bytes.length !== 16) return undefined;
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = [...bytes.subarray(from, to)];
    return (reverse ? part.reverse() : part).map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  return `${hex(0, 4, true)}-${hex(4, 6, true)}-${hex(6, 8, true)}-${hex(8, 10, false)}-${hex(10, 16, false)}`;
}

/** The bytes of a GUID written as text, in objectGUID's order. */
export function guidBytes(text: string): Buffer | undefined {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/i.exec(text);
  if (!m) return undefined;
  const le = (h: string) => Buffer.from(h, "hex").reverse();
  return Buffer.concat([le(m[1]!), le(m[2]!), le(m[3]!), Buffer.from(m[4]! + m[5]!, "hex")]);
}

const isGuid = (attribute: string) => attribute.toLowerCase() === "objectguid";

/** The entry's stable id as text: objectGUID as a GUID, anything else (entryUUID, nsUniqueId) as given. */
export function stableIdOf(entry: Entry, idAttribute: string): string | undefined {
  const v = valuesOf(entry, idAttribute)[0];
  if (v === undefined) return undefined;
  if (isGuid(idAttribute)) return Buffer.isBuffer(v) ? guidText(v) : guidText(Buffer.from(v, "binary"));
  return typeof v === "string" ? v : v.toString("utf8");
}

/** The attributes read as bytes (binary ones). */
export const binaryAttributes = (d: Pick<TDirectory, "idAttribute">): string[] => (isGuid(d.idAttribute) ? [d.idAttribute] : []);

/** What is read of every entry: the login, the stable id and every mapped attribute. */
export function attributesToRead(d: Pick<TDirectory, "loginAttribute" | "idAttribute" | "attributeMap">): string[] {
  return [...new Set([d.loginAttribute, d.idAttribute, ...d.attributeMap.map((r) => r.from)])];
}

/** The user filter narrowed to one value of one attribute (the value escaped as RFC 4515 asks; a GUID as its bytes). */
export function entryFilter(d: Pick<TDirectory, "userFilter">, attribute: string, value: string): string {
  const bytes = isGuid(attribute) ? guidBytes(value) : undefined;
  const one = new EqualityFilter({ attribute, value: bytes ?? value }).toString();
  return `(&${d.userFilter}${one})`;
}

function transformed(rule: TDirectoryAttributeRule, text: string): unknown {
  switch (rule.transform) {
    case "email": {
      const email = normalizeEmail(text)?.toLowerCase();
      return email === undefined ? undefined : { value: email, vrf: rule.verified };
    }
    case "phone": {
      const phone = normalizePhone(text);
      return phone === undefined ? undefined : { value: phone, vrf: rule.verified };
    }
    case "lowercase":
      return text.toLowerCase();
    default:
      return text;
  }
}

/** The catalog attributes the rules make of an entry; a value the transform cannot read is left out. */
export function catalogAttributesOf(entry: Entry, rules: TDirectoryAttributeRule[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const rule of rules) {
    const text = firstText(entry, rule.from)?.trim();
    if (!text) continue;
    const value = transformed(rule, text);
    if (value !== undefined) out[rule.to] = value;
  }
  return out;
}

/** The catalog attributes a directory keeps for its accounts (read-only to anyone else): those its rules fill, sorted. */
export function ownedAttrsOf(rules: TDirectoryAttributeRule[]): string[] {
  return [...new Set(rules.map((r) => r.to))].sort();
}
