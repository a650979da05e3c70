import type { TProfileKey } from "./i18n.ts";

/** A field problem as the server reports it (the contract's input_error item). */
export type TFieldItem = { error: string; desc: string; pos: string };

type TWords = { key: TProfileKey; params?: Record<string, string> };

// The server checks values (server/attributes/attribute-values.ts, users/account-changes.ts) and
// says what is wrong in English for API callers. The portal speaks to people, in their language:
// each of those sentences is recognised here and told in words; one not known yet is shown as sent.
const RULES: [RegExp, (m: RegExpExecArray) => TWords][] = [
  [/^must be at least (\d+) characters$/, (m) => ({ key: "err.minLength", params: { n: m[1]! } })],
  [/^must be at most (\d+) characters$/, (m) => ({ key: "err.maxLength", params: { n: m[1]! } })],
  [/^does not match the pattern /, () => ({ key: "err.pattern" })],
  [/^must be a (uri|uuid|digits)$/, (m) => ({ key: `err.format.${m[1] as "uri" | "uuid" | "digits"}` })],
  [/^must be a number$/, () => ({ key: "err.number" })],
  [/^must be a date YYYY-MM-DD$/, () => ({ key: "err.date" })],
  [/^must be an array of at most (\d+) strings$/, (m) => ({ key: "err.list", params: { n: m[1]! } })],
  [/^must be a phone number/, () => ({ key: "err.phone" })],
  [/^must be an e-mail address$/, () => ({ key: "err.email" })],
  [/^a required attribute (cannot be removed|is missing)$/, () => ({ key: "err.required" })],
  [/^(this attribute cannot be changed( here)?|this attribute is not available to the client|unknown attribute)$/, () => ({ key: "err.notEditable" })],
];

/** The words for one field problem, or null when the server's sentence is not one the portal knows. */
export function fieldProblemWords(item: TFieldItem): TWords | null {
  if (item.error === "contact_use_violation") return { key: "err.taken" };
  for (const [re, words] of RULES) {
    const m = re.exec(item.desc);
    if (m) return words(m);
  }
  return null;
}

/**
 * Field problems keyed by the attribute (the first segment of `pos`: "nickname.2" is the list's
 * third line, told by the server's text), the first per field, in the person's language.
 */
export function fieldProblems(items: TFieldItem[], u: (key: TProfileKey, params?: Record<string, string>) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const field = item.pos.split(".")[0] ?? "";
    const words = fieldProblemWords(item);
    out[field] ??= words ? u(words.key, words.params) : item.desc;
  }
  return out;
}
