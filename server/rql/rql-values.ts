import { findBadText } from "../http/parse.ts";
import { RqlError } from "./rql-error.ts";
import type { TRqlValue } from "./rql.types.ts";

/**
 * Numbers as RQL accepts them: plain decimals with an optional short exponent. The bounds keep every
 * accepted number finite in JavaScript and castable to PostgreSQL's numeric without an overflow
 * (which would fail the query as a 500).
 */
const NUMBER = /^-?\d{1,40}(\.\d{1,40})?([eE][-+]?\d{1,2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TYPE_PREFIX = /^(string|number|boolean|date):/;

export function isRqlNumber(text: string): boolean {
  return NUMBER.test(text);
}

/** A calendar date YYYY-MM-DD that exists (2024-02-29 does, 2023-02-29 does not), as date attributes are stored. */
export function isRqlDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(2000, mo - 1, d));
  t.setUTCFullYear(y);
  return y >= 1 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Where decodeURIComponent gave up: the first `%` without two hex digits, else the first `%` (its bytes are not UTF-8). */
function brokenEscapeAt(raw: string): number {
  const bad = /%(?![0-9a-fA-F]{2})/.exec(raw);
  return bad ? bad.index : raw.indexOf("%");
}

/**
 * Percent-decodes one argument, so `,` `(` `)` `&` can be written %2C %28 %29 %26 inside a value.
 * NUL and unpaired surrogates are refused: PostgreSQL text cannot hold the one, UTF-8 not the other.
 */
export function decodeArg(raw: string, pos: number): string {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    throw new RqlError(pos + Math.max(0, brokenEscapeAt(raw)), "malformed percent escape");
  }
  if (findBadText(text)) throw new RqlError(pos, "the value holds a NUL character or an unpaired surrogate");
  return text;
}

function typedValue(type: string, text: string, pos: number): TRqlValue {
  switch (type) {
    case "number":
      if (!isRqlNumber(text)) throw new RqlError(pos, `"${text}" is not a number`);
      return { type: "number", value: Number(text), text, typed: true, pos };
    case "boolean":
      if (text !== "true" && text !== "false") throw new RqlError(pos, `"${text}" is not a boolean (true or false)`);
      return { type: "boolean", value: text === "true", text, typed: true, pos };
    case "date":
      if (!isRqlDate(text)) throw new RqlError(pos, `"${text}" is not a date (YYYY-MM-DD)`);
      return { type: "date", value: text, text, typed: true, pos };
    default:
      return { type: "string", value: text, text, typed: true, pos };
  }
}

/** Untyped values: null, true and false, numbers, else strings (a date stays a string until a date field reads it). */
function guessedValue(text: string, pos: number): TRqlValue {
  const base = { text, typed: false, pos };
  if (text === "null") return { ...base, type: "null", value: null };
  if (text === "true" || text === "false") return { ...base, type: "boolean", value: text === "true" };
  if (isRqlNumber(text)) return { ...base, type: "number", value: Number(text) };
  return { ...base, type: "string", value: text };
}

/**
 * One value argument as written at `pos`. The type prefix is read before decoding, so a value that
 * really starts with "number:" can be written `string:number:…` or with its colon encoded (%3A).
 */
export function parseValue(raw: string, pos: number): TRqlValue {
  const prefix = TYPE_PREFIX.exec(raw);
  if (prefix) {
    const at = pos + prefix[0].length;
    return typedValue(prefix[1]!, decodeArg(raw.slice(prefix[0].length), at), at);
  }
  if (raw === "") throw new RqlError(pos, "missing value (write string: for an empty string)");
  return guessedValue(decodeArg(raw, pos), pos);
}
