import { AppError } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";
import { localizeItem } from "./messages.ts";

/**
 * Attribute problems found by the shared account logic, in registration's terms: a value another
 * account holds is a conflict (409) naming each field, anything else invalid input (400); `errMsg`
 * in the caller's language.
 */
export function asRegistrationError(e: unknown, locale: TLocale): unknown {
  if (!(e instanceof AppError) || e.code !== "request.invalid_values" || !e.details.items) return e;
  const items = e.details.items.map((i) => localizeItem(i, locale));
  const conflict = items.every((i) => i.error === "contact_use_violation");
  return new AppError(conflict ? "registration.conflict" : "registration.invalid", { items });
}
