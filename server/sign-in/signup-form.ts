import type { TAttributeType } from "../attributes/attributes.schemas.ts";
import type { TCatalog } from "../attributes/attributes.service.ts";

/** One input of the sign-up form: an attribute of the catalog. */
export type TSignUpField = { name: string; type: TAttributeType; required: boolean; maxLength?: number };

/**
 * A problem with what was typed, by form field; `text` is already in the page's language and shown
 * at the field, `summary` (when the text needs the field's name to be understood) in the list above.
 */
export type TFieldProblem = { field: string; text: string; summary?: string };

/** Problems the page itself finds before it asks the registration service. */
export type TFormProblemCode = "contact_required" | "password_required" | "password_mismatch";

// A person's names and contacts are asked for whether required or not: that is what a sign-up is
// expected to ask. Other attributes only when the catalog requires them.
const ALWAYS = new Set(["family_name", "given_name", "middle_name", "email", "phone_number"]);
// Set by the service, never by the person signing up: sub is generated, locked is an administrator's.
const NEVER = new Set(["sub", "locked"]);

/** The form's attribute inputs, in the catalog's order. */
export function signUpFields(catalog: TCatalog): TSignUpField[] {
  return catalog.defs
    .filter((d) => !NEVER.has(d.name) && (d.required || ALWAYS.has(d.name)))
    .map((d) => ({ name: d.name, type: d.type, required: d.required, maxLength: d.validators.maxLength }));
}

export type TSignUpForm = {
  /** What the person typed, to show the form again (never the passwords). */
  values: Record<string, string>;
  /** Attributes as registration (v3 spelling) takes them; contacts wait for their codes. */
  attrs: Record<string, unknown>;
  /** The password typed; undefined when the person chose a passkey instead. */
  password: string | undefined;
  problems: { field: string; code: TFormProblemCode }[];
};

function valueOf(field: TSignUpField, text: string): unknown {
  switch (field.type) {
    case "email":
    case "phone":
      return { value: text, verified: false };
    case "boolean":
      return text === "on";
    case "number":
      // Not a number: passed on as typed, so the registration service names the problem.
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case "string_list":
      return text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
    default:
      return text;
  }
}

/**
 * Reads a submitted sign-up form. An empty input is left out (registration reports a required one
 * as missing); a contact is sent unconfirmed, so a code goes to it. The page asks for at least one
 * contact (a sign-up is confirmed by a code) and for the password twice (typed unseen, without
 * JavaScript to show it), unless the person pressed "Sign up with a passkey instead" (`method`
 * passkey, offered only where passkeys are): then any password typed is ignored.
 */
export function readSignUpForm(fields: TSignUpField[], form: Map<string, string>, passkeyOffered = false): TSignUpForm {
  const values: Record<string, string> = {};
  const attrs: Record<string, unknown> = {};
  for (const f of fields) {
    const text = (form.get(f.name) ?? "").trim();
    values[f.name] = text;
    if (text || (f.type === "boolean" && f.required)) attrs[f.name] = valueOf(f, text);
  }
  const withPasskey = passkeyOffered && form.get("method") === "passkey";
  const password = withPasskey ? undefined : (form.get("password") ?? "");
  const problems: TSignUpForm["problems"] = [];
  if (!values.email && !values.phone_number) problems.push({ field: fields.some((f) => f.name === "email") ? "email" : "phone_number", code: "contact_required" });
  if (password === "") problems.push({ field: "password", code: "password_required" });
  else if (password !== undefined && password !== (form.get("password_repeat") ?? "")) problems.push({ field: "password_repeat", code: "password_mismatch" });
  return { values, attrs, password, problems };
}

/**
 * The form's first values from an external account's claims (OIDC Core §5.1 names, the same as the
 * catalog's), for the fields the form has; the person checks them before sending.
 */
export function signUpValuesFromClaims(claims: Record<string, unknown>, fields: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of ["family_name", "given_name", "middle_name", "email", "phone_number"]) {
    const v = claims[name];
    if (typeof v === "string" && v && fields.includes(name)) values[name] = v;
  }
  return values;
}
