"use client";
import { EVENT_TYPES } from "@/server/audit/event-types";
import { eventTitle } from "../../event-titles.ts";
import { LANGS, type TLang } from "../../i18n.ts";
import { useI18n } from "../../i18n-provider.tsx";
import { Combobox, type TComboOption } from "../../ui/combobox.tsx";
import { useEventsText } from "./i18n.ts";

/** The types already listed before the last comma, and what is being typed after it. */
function splitTypes(text: string): { chosen: string[]; typing: string } {
  const parts = text.split(",");
  return { chosen: parts.slice(0, -1).map((p) => p.trim()).filter(Boolean), typing: parts.at(-1)!.trim().toLowerCase() };
}

/**
 * The event types whose title (in either language: an administrator may remember the other one's)
 * or recorded name contains what is being typed, titled in the console's language.
 */
function suggestions(text: string, lang: TLang): TComboOption[] {
  const { chosen, typing } = splitTypes(text);
  const found = (type: string) => [type, ...LANGS.map((l) => eventTitle(type, l))].some((s) => s.toLowerCase().includes(typing));
  return EVENT_TYPES.filter((t) => !chosen.includes(t) && found(t)).map((t) => ({ value: t, label: eventTitle(t, lang), detail: t }));
}

/**
 * The type filter: free text as before (several types separated by commas), with a list of the known
 * types to pick from; a pick replaces what is typed after the last comma and applies the filter.
 */
export function EventTypeField({ value, onChange, onPicked }: { value: string; onChange: (text: string) => void; onPicked: (text: string) => void }) {
  const e = useEventsText();
  const { lang } = useI18n();
  return (
    <Combobox
      label={e("events.filter.type")}
      listLabel={e("events.filter.typeList")}
      hint={e("events.filter.typeHint")}
      name="type"
      autoComplete="off"
      spellCheck={false}
      value={value}
      onChange={onChange}
      options={suggestions(value, lang)}
      onPick={(option) => onPicked([...splitTypes(value).chosen, option.value].join(","))}
    />
  );
}
