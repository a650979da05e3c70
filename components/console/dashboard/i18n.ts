"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The console's home page.
const en = {
  "dash.title": "Overview",
  "dash.loading": "Loading the overview…",
  "dash.loadFailed": "Could not load the overview.",
  "dash.retry": "Retry",
  "dash.accounts": "Accounts",
  "dash.accountsNew": "{n} new this week",
  "dash.accountsLocked": "{n} locked",
  "dash.sessions": "Active sessions",
  "dash.sessionsHint": "browser sessions at the service that have not expired",
  "dash.outbox": "Messages waiting",
  "dash.outboxFailed": "{n} failed this week",
  "dash.key": "Signing key",
  "dash.keyAge": "{n} days in use",
  "dash.keyNone": "none yet",
  "dash.signIns24": "Sign-ins, last 24 hours",
  "dash.signIns7": "Sign-ins, last 7 days (UTC)",
  "dash.signedIn": "Signed in",
  "dash.failed": "Failed",
  "dash.chartSummary": "{signedIn} sign-ins and {failed} failures; the table below the chart lists each {unit}.",
  "dash.hour": "hour",
  "dash.day": "day",
  "dash.when": "When",
  "dash.users": "Users",
  "dash.outboxLink": "Outbox",
  "dash.keysLink": "Signing keys",
  "dash.eventsLink": "Failed sign-ins",
} as const;

export type TDashKey = keyof typeof en;

const ru: Record<TDashKey, string> = {
  "dash.title": "Обзор",
  "dash.loading": "Загрузка обзора…",
  "dash.loadFailed": "Не удалось загрузить обзор.",
  "dash.retry": "Повторить",
  "dash.accounts": "Учётные записи",
  "dash.accountsNew": "новых за неделю: {n}",
  "dash.accountsLocked": "заблокировано: {n}",
  "dash.sessions": "Активные сессии",
  "dash.sessionsHint": "неистёкшие сессии браузеров в сервисе",
  "dash.outbox": "Сообщения в очереди",
  "dash.outboxFailed": "не доставлено за неделю: {n}",
  "dash.key": "Ключ подписи",
  "dash.keyAge": "используется дней: {n}",
  "dash.keyNone": "пока нет",
  "dash.signIns24": "Входы за 24 часа",
  "dash.signIns7": "Входы за 7 дней (UTC)",
  "dash.signedIn": "Успешные",
  "dash.failed": "Неудачные",
  "dash.chartSummary": "Успешных входов: {signedIn}, неудачных: {failed}; таблица под графиком — по каждому периоду ({unit}).",
  "dash.hour": "час",
  "dash.day": "день",
  "dash.when": "Когда",
  "dash.users": "Пользователи",
  "dash.outboxLink": "Исходящие",
  "dash.keysLink": "Ключи подписи",
  "dash.eventsLink": "Неудачные входы",
};

const DICTIONARIES: Record<TLang, Record<TDashKey, string>> = { en, ru };

export type TDashText = (key: TDashKey, params?: Record<string, string>) => string;

export function useDashText(): TDashText {
  return useAreaText(DICTIONARIES);
}
