"use client";
import { TRPCClientError } from "@trpc/client";
import type { TLang } from "../i18n.ts";
import { useAreaText } from "../i18n-provider.tsx";
import { appCodeOf } from "../console/call-errors.ts";
import type { TFieldItem } from "./profile/field-errors.ts";

// What the portal's pages say when a call fails, shared by every section.
const en = {
  "state.loading": "Loading…",
  "state.retry": "Retry",
  "error.generic": "Something went wrong. Try again.",
  "error.unauthorized": "Your session has ended. Sign in again.",
  "error.busy": "Too many requests. Wait a moment and try again.",
  "error.unavailable": "The service is not available right now. Try again in a minute.",
  "error.reauth": "Confirm it's you first: sign in again, then repeat the change.",
};

type TErrorKey = keyof typeof en;

const ru: Record<TErrorKey, string> = {
  "state.loading": "Загрузка…",
  "state.retry": "Повторить",
  "error.generic": "Что-то пошло не так. Повторите попытку.",
  "error.unauthorized": "Сеанс завершён. Войдите снова.",
  "error.busy": "Слишком много запросов. Подождите немного и повторите.",
  "error.unavailable": "Сервис сейчас недоступен. Повторите через минуту.",
  "error.reauth": "Сначала подтвердите, что это вы: войдите снова и повторите изменение.",
};

const TEXT: Record<TLang, Record<TErrorKey, string>> = { en, ru };

export function usePortalStateText() {
  return useAreaText(TEXT);
}

/** The refusal of a sensitive change whose sign-in is too old (server/auth/recent-sign-in.ts). */
export const REAUTH_REQUIRED = "portal.reauth_required";

const KEY_BY_STATUS: Record<number, TErrorKey> = { 401: "error.unauthorized", 429: "error.busy", 503: "error.unavailable" };

function httpStatusOf(error: unknown): number {
  return error instanceof TRPCClientError ? ((error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 0) : 0;
}

/** A sentence for a failure no field or page explains in its own words. */
export function usePortalErrorText(): (error: unknown) => string {
  const t = usePortalStateText();
  // A sign-in too old for a sensitive change (the step-up dialog opens too: components/portal/step-up).
  return (error) => t(appCodeOf(error) === REAUTH_REQUIRED ? "error.reauth" : (KEY_BY_STATUS[httpStatusOf(error)] ?? "error.generic"));
}

/** The field problems of a refused input (request.invalid_values), as the server listed them. */
export function inputItemsOf(error: unknown): TFieldItem[] {
  if (appCodeOf(error) !== "request.invalid_values" || !(error instanceof TRPCClientError)) return [];
  return ((error.data as { items?: TFieldItem[] } | undefined)?.items ?? []).filter((i) => typeof i.pos === "string");
}

export { appCodeOf };
