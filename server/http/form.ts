import { AppError } from "../errors/app-error.ts";
import { findBadText, mediaType, readBodyText } from "./parse.ts";
import type { TIncoming } from "./exchange.ts";

function invalidRequest(desc: string): AppError {
  return new AppError("oauth.invalid_request", { desc });
}

/**
 * Reads an application/x-www-form-urlencoded body: the token and revocation endpoints' and the
 * sign-in pages' forms. RFC 6749 §3.2: parameters must not repeat; unrecognised ones are ignored,
 * which is why this is a Map and not a schema. A bad form is an OAuth invalid_request; the pages
 * render that code as they render any other.
 */
export async function readForm(req: TIncoming): Promise<Map<string, string>> {
  if (mediaType(req) !== "application/x-www-form-urlencoded") {
    throw invalidRequest("Content-Type must be application/x-www-form-urlencoded");
  }
  const text = await readBodyText(req);
  const form = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(text)) {
    if (form.has(k)) throw invalidRequest(`parameter ${k} is repeated`);
    if (findBadText(k) || findBadText(v)) throw invalidRequest(`parameter ${k.replace(/[^\x20-\x7e]/g, "?")} contains invalid characters`);
    form.set(k, v);
  }
  return form;
}

/** `value` of a required parameter, or invalid_request naming it. */
export function required(form: Map<string, string>, name: string): string {
  const value = form.get(name);
  if (value === undefined || value === "") throw invalidRequest(`parameter ${name} is required`);
  return value;
}
