"use client";
import { useI18n } from "../../i18n-provider.tsx";

/** A Unix time in the console's language and the browser's time zone (rendered in the browser only: lists load there). */
export function UnixTime({ seconds }: { seconds: number }) {
  const { lang } = useI18n();
  const date = new Date(seconds * 1000);
  return <time dateTime={date.toISOString()}>{date.toLocaleString(lang, { dateStyle: "short", timeStyle: "medium" })}</time>;
}
