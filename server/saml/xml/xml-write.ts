import { randomBytes } from "node:crypto";

/** Escapes text and attribute values; everything we write goes through here. */
export function escapeXml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** A SAML ID: an xs:ID must not start with a digit, and 160 random bits cannot be guessed or collide. */
export function samlId(): string {
  return `_${randomBytes(20).toString("hex")}`;
}

/** An xs:dateTime in UTC, to the second, as SAML peers expect. */
export function instant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
