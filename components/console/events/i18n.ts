"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The events page's words (and the events table's, which the user page shows too).
const en = {
  "events.title": "Security events",
  "events.intro": "Sign-ins and their failures, sign-outs, consents, resets and administrators' actions, newest first.",
  "events.filters": "Filters",
  "events.filter.sub": "User: sub, name, e-mail or phone",
  "events.filter.client": "Client",
  "events.filter.type": "Type",
  "events.filter.typeHint": "Several: separated by commas.",
  "events.filter.typeList": "Event types",
  "events.filter.ip": "IP address",
  "events.filter.from": "From",
  "events.filter.to": "Before",
  "events.filter.apply": "Apply",
  "events.filter.clear": "Clear",
  "events.filter.invalid": "Some filters in the address were not valid and are ignored.",
  "events.export": "Download CSV",
  "events.loading": "Loading…",
  "events.loadMore": "Load more",
  "events.loadFailed": "Could not load the events.",
  "events.retry": "Retry",
  "events.empty": "No events yet.",
  "events.emptyFiltered": "No events match these filters.",
  "events.col.time": "Time",
  "events.col.type": "Event",
  "events.col.subject": "User",
  "events.col.client": "Client",
  "events.col.ip": "IP address",
  "events.col.userAgent": "Browser",
  "events.col.params": "Details",
};

export type TEventsKey = keyof typeof en;

const ru: Record<TEventsKey, string> = {
  "events.title": "События безопасности",
  "events.intro": "Входы и неудачные попытки, выходы, согласия, сбросы сеансов и действия администраторов; сначала новые.",
  "events.filters": "Фильтры",
  "events.filter.sub": "Пользователь: sub, имя, почта или телефон",
  "events.filter.client": "Приложение",
  "events.filter.type": "Тип",
  "events.filter.typeHint": "Несколько — через запятую.",
  "events.filter.typeList": "Типы событий",
  "events.filter.ip": "IP-адрес",
  "events.filter.from": "С",
  "events.filter.to": "До",
  "events.filter.apply": "Применить",
  "events.filter.clear": "Сбросить",
  "events.filter.invalid": "Некоторые фильтры в адресе недопустимы и не учитываются.",
  "events.export": "Скачать CSV",
  "events.loading": "Загрузка…",
  "events.loadMore": "Показать ещё",
  "events.loadFailed": "Не удалось загрузить события.",
  "events.retry": "Повторить",
  "events.empty": "Событий пока нет.",
  "events.emptyFiltered": "Нет событий, подходящих под фильтры.",
  "events.col.time": "Время",
  "events.col.type": "Событие",
  "events.col.subject": "Пользователь",
  "events.col.client": "Приложение",
  "events.col.ip": "IP-адрес",
  "events.col.userAgent": "Браузер",
  "events.col.params": "Подробности",
};

const DICTIONARIES: Record<TLang, Record<TEventsKey, string>> = { en, ru };

export type TEventsText = (key: TEventsKey, params?: Record<string, string>) => string;

export function useEventsText(): TEventsText {
  return useAreaText(DICTIONARIES);
}
