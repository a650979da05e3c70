import { TRPCClientError } from "@trpc/client";
import type { TMessageKey, TTranslate } from "../i18n.ts";

type TErrorData = { httpStatus?: number; appCode?: string | null; items?: { pos: string; desc: string }[] };

function dataOf(error: unknown): TErrorData {
  return error instanceof TRPCClientError ? ((error.data ?? {}) as TErrorData) : {};
}

/** The registry code of a failed call ("user.stale_instance"), when the server named one. */
export function appCodeOf(error: unknown): string | null {
  return dataOf(error).appCode ?? null;
}

export function isUnauthorized(error: unknown): boolean {
  return dataOf(error).httpStatus === 401;
}

/**
 * Field errors keyed by the form field: an item's pos is the zod path ("redirectUris.1"), and the
 * first segment is the field; a list index is told in the text. A named sub-field
 * ("validators.pattern", "email.vrf") keeps its whole path as the key, so a form can place it
 * under that control. The first problem per field is enough to act on.
 */
export function fieldErrorsOf(error: unknown, t: TTranslate): Record<string, string> {
  const data = dataOf(error);
  const out: Record<string, string> = {};
  if (data.appCode === "client.already_exists") out.id = t("form.exists");
  for (const item of data.items ?? []) {
    const [field = "", index] = item.pos.split(".");
    if (index === undefined) out[field] ??= item.desc;
    else if (/^\d+$/.test(index)) out[field] ??= `#${Number(index) + 1}: ${item.desc}`;
    else out[item.pos] ??= item.desc;
  }
  return out;
}

const KEY_BY_STATUS: Record<number, TMessageKey> = { 401: "error.unauthorized", 404: "error.notFound" };
const KEY_BY_CODE: Record<string, TMessageKey> = {
  "client.builtin": "error.builtin",
  "console.own_account": "error.ownAccount",
  "console.forbidden": "error.forbidden",
  "console.privileged_account": "error.privilegedAccount",
  "console.last_admin": "error.lastAdmin",
  "console.passkey_required": "error.passkeyRequired",
  "passkeys.enrol_first": "error.passkeyEnrolFirst",
  "passkeys.metadata_invalid": "error.metadataInvalid",
};

/** A sentence for a refusal known only by its code (a bulk action reports one per account). */
export function messageOfCode(code: string, t: TTranslate): string {
  const key = KEY_BY_CODE[code];
  if (key) return t(key);
  return code === "user.not_found" || code === "user.stale_instance" ? t("error.accountGone") : t("error.generic");
}

/** A sentence for an error that no field explains. */
export function messageOf(error: unknown, t: TTranslate): string {
  const data = dataOf(error);
  const key = KEY_BY_CODE[data.appCode ?? ""] ?? KEY_BY_STATUS[data.httpStatus ?? 0];
  return key ? t(key) : t("error.generic");
}

/** Every problem a refused call names (a password policy lists several), as the server wrote them in the caller's language. */
export function problemsOf(error: unknown): string[] {
  return (dataOf(error).items ?? []).map((i) => i.desc);
}
