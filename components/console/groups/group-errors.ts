import type { TTranslate } from "../../i18n.ts";
import { appCodeOf, messageOf } from "../call-errors.ts";
import type { TGroupsKey, TGroupsText } from "./i18n.ts";

const KEY_BY_CODE: Record<string, TGroupsKey> = {
  "group.profile_exists": "pform.exists",
  "group.profile_not_found": "pform.gone",
  "group.exists": "gform.exists",
  "group.stale_instance": "gform.stale",
  "group.not_found": "group.notFound",
  "group.unknown_user": "group.unknownUser",
};

/** A sentence for a failed groups call: the groups' own codes in their words, anything else as every console page says it. */
export function groupsMessageOf(error: unknown, g: TGroupsText, t: TTranslate): string {
  const key = KEY_BY_CODE[appCodeOf(error) ?? ""];
  return key ? g(key) : messageOf(error, t);
}
