import type { TTranslate } from "../../i18n.ts";
import { appCodeOf, messageOf } from "../call-errors.ts";
import type { TRightsKey, TRightsText } from "./i18n.ts";

const KEY_BY_CODE: Record<string, TRightsKey> = {
  "rights.unknown_user": "error.unknownUser",
  "rights.unknown_rp": "error.unknownApp",
  "rights.unknown_group": "error.unknownGroup",
  "rights.unknown_right": "error.unknownRight",
  "rights.kind_not_allowed": "error.kindNotAllowed",
  "rights.builtin": "error.builtin",
  "rights.definition_not_found": "error.notFound",
  "rights.definition_exists": "form.exists",
};

/** A sentence for a failed rights call: the rights' own codes in their words, anything else as every console page says it. */
export function rightsMessageOf(error: unknown, r: TRightsText, t: TTranslate): string {
  const key = KEY_BY_CODE[appCodeOf(error) ?? ""];
  return key ? r(key) : messageOf(error, t);
}
