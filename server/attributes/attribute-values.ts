import type { TInputItem } from "../errors/app-error.ts";
import type { TAttributeDef } from "./attributes.schemas.ts";
import { matchesPattern } from "./attribute-pattern.ts";

/** A stored contact: the address and whether its owner proved they receive messages there. */
export type TContact = { value: string; vrf: boolean };
export type TAttrValue = string | number | boolean | string[] | TContact;

export type TCheck<T> = { ok: true; value: T } | { ok: false; item: TInputItem };

const fail = (pos: string, desc: string, error = "wrong_value"): { ok: false; item: TInputItem } => ({
  ok: false,
  item: { error, desc, pos },
});

/**
 * Phones are stored as 7XXXXXXXXXX. `+7…` and `8…` (the domestic trunk prefix) are accepted, with
 * the spaces, dashes and brackets people type; anything else is refused rather than guessed.
 */
export function normalizePhone(raw: string): string | undefined {
  const compact = raw.trim().replace(/[\s()-]/g, "");
  const m = /^(?:\+7|8|7)(\d{10})$/.exec(compact);
  return m ? `7${m[1]}` : undefined;
}

// Deliberately plain: one @, a dot in the domain, no spaces. RFC 5322's full grammar accepts
// addresses no mail system delivers to; the confirmation code is the real check.
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:.]{2,}$/u;

export function normalizeEmail(raw: string): string | undefined {
  const v = raw.trim();
  return v.length <= 254 && EMAIL.test(v) ? v : undefined;
}

const FORMATS: Record<string, RegExp> = {
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  digits: /^\d+$/,
};

function checkText(def: TAttributeDef, pos: string, v: string): TCheck<string> {
  const { minLength, maxLength = 1000, pattern, format } = def.validators;
  const length = [...v].length;
  if (minLength !== undefined && length < minLength) return fail(pos, `must be at least ${minLength} characters`);
  if (length > maxLength) return fail(pos, `must be at most ${maxLength} characters`);
  if (pattern) {
    // A pattern stored before patterns were RE2 (one with a backreference) fails closed, and says so.
    const matched = matchesPattern(pattern, v);
    if (matched === undefined) return fail(pos, "the attribute's pattern is not supported any more; an administrator must change it");
    if (!matched) return fail(pos, `does not match the pattern ${pattern}`);
  }
  if (format && !FORMATS[format]!.test(v)) return fail(pos, `must be a ${format}`);
  return { ok: true, value: v };
}

function isValidDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().startsWith(v);
}

/**
 * The contact part of a value. v3 sends {value, vrf}, registration {value, verified}, v1 a bare
 * string (unverified); `flag` says which spelling this caller uses.
 */
export function parseContact(def: TAttributeDef, pos: string, raw: unknown, flag: "vrf" | "verified" | "bare"): TCheck<TContact> {
  let value: unknown = raw;
  let vrf = false;
  if (flag !== "bare" || (typeof raw === "object" && raw !== null)) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(pos, `must be an object {value, ${flag === "bare" ? "vrf" : flag}}`);
    const o = raw as Record<string, unknown>;
    const key = flag === "bare" ? "vrf" : flag;
    const extra = Object.keys(o).filter((k) => k !== "value" && k !== key);
    if (extra.length) return fail(`${pos}.${extra[0]}`, `unknown field: ${extra.join(", ")}`);
    value = o.value;
    if (o[key] !== undefined && typeof o[key] !== "boolean") return fail(`${pos}.${key}`, "must be a boolean");
    vrf = o[key] === true;
  }
  if (typeof value !== "string") return fail(`${pos}`, "must be a string");
  const normalized = def.type === "phone" ? normalizePhone(value) : normalizeEmail(value);
  if (!normalized) return fail(pos, def.type === "phone" ? "must be a phone number 7XXXXXXXXXX" : "must be an e-mail address");
  return { ok: true, value: { value: normalized, vrf } };
}

/** Checks a non-contact value against its attribute's type and validators. */
export function parseValue(def: TAttributeDef, pos: string, raw: unknown): TCheck<TAttrValue> {
  switch (def.type) {
    case "boolean":
      return typeof raw === "boolean" ? { ok: true, value: raw } : fail(pos, "must be a boolean");
    case "number":
      return typeof raw === "number" && Number.isFinite(raw) ? { ok: true, value: raw } : fail(pos, "must be a number");
    case "date":
      return typeof raw === "string" && isValidDate(raw) ? { ok: true, value: raw } : fail(pos, "must be a date YYYY-MM-DD");
    case "string_list": {
      if (!Array.isArray(raw) || raw.length > 100) return fail(pos, "must be an array of at most 100 strings");
      const out: string[] = [];
      for (const [i, item] of raw.entries()) {
        if (typeof item !== "string") return fail(`${pos}.${i}`, "must be a string");
        const c = checkText(def, `${pos}.${i}`, item);
        if (!c.ok) return c;
        out.push(c.value);
      }
      return { ok: true, value: out };
    }
    case "phone":
    case "email":
      return parseContact(def, pos, raw, "vrf");
    default:
      return typeof raw === "string" ? checkText(def, pos, raw) : fail(pos, "must be a string");
  }
}

/** What the value index holds for an attribute value: lower-cased text, one row per list item. */
export function indexKeys(value: TAttrValue): string[] {
  if (Array.isArray(value)) return [...new Set(value.map((v) => v.toLowerCase()))];
  if (typeof value === "object") return [value.value.toLowerCase()];
  return [String(value).toLowerCase()];
}

/** A v1 flat value: contacts are their address. */
export function flatValue(value: TAttrValue): string | number | boolean | string[] {
  return typeof value === "object" && !Array.isArray(value) ? value.value : value;
}
