import type { TAttributeDef } from "../attributes/attributes.schemas.ts";
import type { TGroupAttrDef } from "./groups.schemas.ts";

/**
 * A group attribute as an account attribute of the same type: the server checks its values with the
 * account rules, and the console shows it with the account controls. Types only, so pages may import it.
 */
export function asAttributeDef(d: TGroupAttrDef): TAttributeDef {
  return {
    name: d.name,
    type: d.type,
    required: d.required,
    unique: d.unique ?? false,
    unmodifiable: false,
    searchable: false,
    validators: d.maxLength === undefined ? {} : { maxLength: d.maxLength },
    aliases: [],
  };
}
