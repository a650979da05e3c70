import type { TCatalog } from "../../attributes/attributes.service.ts";
import { AppError } from "../../errors/app-error.ts";

/**
 * v1 registration sends one flat object: attributes by v1 alias or name, and `password`. Returns the
 * catalog attributes keyed by name and the password apart.
 */
export function fromRegistrationV1(catalog: TCatalog, body: Record<string, unknown>): { attrs: Record<string, unknown>; password?: string } {
  const attrs: Record<string, unknown> = {};
  let password: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === "password") {
      if (typeof value !== "string") throw new AppError("registration.invalid", { items: [{ error: "wrong_value", desc: "must be a string", pos: "password" }] });
      password = value;
      continue;
    }
    attrs[catalog.byAlias.get(key) ?? key] = value;
  }
  return { attrs, password };
}
