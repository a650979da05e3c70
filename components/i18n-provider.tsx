"use client";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { fillIn, translator, type TLang, type TTranslate } from "./i18n.ts";

type TI18n = { lang: TLang; t: TTranslate };

const I18nContext = createContext<TI18n>({ lang: "en", t: translator("en") });

/** The server picks the language (cookie, then Accept-Language); client components read it here. */
export function I18nProvider({ lang, children }: { lang: TLang; children: ReactNode }) {
  const value = useMemo(() => ({ lang, t: translator(lang) }), [lang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): TI18n {
  return useContext(I18nContext);
}

/**
 * The words of one area of pages (`components/<area>/i18n.ts`), kept with them rather than in the
 * shared dictionary, in the current language.
 */
export function useAreaText<K extends string>(dictionaries: Record<TLang, Record<K, string>>): (key: K, params?: Record<string, string>) => string {
  const { lang } = useI18n();
  return useMemo(() => (key, params) => fillIn(dictionaries[lang][key], params), [lang, dictionaries]);
}
