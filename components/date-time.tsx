"use client";
import type { TLang } from "./i18n.ts";
import { useI18n } from "./i18n-provider.tsx";

// One way to write a moment across the console and the portal, per language: "29 Nov 2026, 14:05:09"
// and "29 нояб. 2026 г., 14:05:09" (seconds, since events of one minute must be told apart), in the
// reader's time zone. en-GB rather than en-US: day before month and a 24-hour clock, as in Russian.
const LOCALES: Record<TLang, string> = { en: "en-GB", ru: "ru-RU" };
const FORMATS = new Map<TLang, Intl.DateTimeFormat>();

export function formatDateTime(value: Date | string | number, lang: TLang): string {
  let format = FORMATS.get(lang);
  if (!format) FORMATS.set(lang, (format = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "medium", timeStyle: "medium" })));
  return format.format(new Date(value));
}

/** A moment as a <time> element in the page's language; `value` is a Date, an ISO string or milliseconds. */
export function DateTime({ value }: { value: Date | string | number }) {
  const { lang } = useI18n();
  const date = new Date(value);
  return <time dateTime={date.toISOString()}>{formatDateTime(date, lang)}</time>;
}
