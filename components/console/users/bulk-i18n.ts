"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The users list's selection: bulk actions, export and page size.
const en = {
  "bulk.selectAll": "Select every account on this page",
  "bulk.select": "Select {sub}",
  "bulk.selected": "{n} selected",
  "bulk.clear": "Clear selection",
  "bulk.lock": "Lock",
  "bulk.unlock": "Unlock",
  "bulk.endSessions": "End sessions",
  "bulk.delete": "Delete",
  "bulk.exportCsv": "Export CSV",
  "bulk.exportJson": "Export JSON",
  "bulk.confirm.lock": "Lock {n} accounts?",
  "bulk.confirm.unlock": "Unlock {n} accounts?",
  "bulk.confirm.endSessions": "End every session of {n} accounts?",
  "bulk.confirm.delete": "Delete {n} accounts?",
  "bulk.body.lock": "They cannot sign in until unlocked; their sessions and tokens end and each person is told.",
  "bulk.body.unlock": "They can sign in again.",
  "bulk.body.endSessions": "Every browser and application is signed out; their refresh tokens stop working.",
  "bulk.body.delete": "The accounts and everything they hold are removed. This cannot be undone.",
  "bulk.go.lock": "Lock {n} accounts",
  "bulk.go.unlock": "Unlock {n} accounts",
  "bulk.go.endSessions": "End sessions of {n} accounts",
  "bulk.go.delete": "Delete {n} accounts",
  "bulk.cancel": "Cancel",
  "bulk.done": "Done for {n} accounts.",
  "bulk.refused": "Refused for {n}: {list}.",
  "bulk.pageSize": "Rows per page",
} as const;

export type TBulkKey = keyof typeof en;

const ru: Record<TBulkKey, string> = {
  "bulk.selectAll": "Выбрать все учётные записи на странице",
  "bulk.select": "Выбрать {sub}",
  "bulk.selected": "Выбрано: {n}",
  "bulk.clear": "Снять выбор",
  "bulk.lock": "Заблокировать",
  "bulk.unlock": "Разблокировать",
  "bulk.endSessions": "Завершить сессии",
  "bulk.delete": "Удалить",
  "bulk.exportCsv": "Выгрузить CSV",
  "bulk.exportJson": "Выгрузить JSON",
  "bulk.confirm.lock": "Заблокировать учётные записи ({n})?",
  "bulk.confirm.unlock": "Разблокировать учётные записи ({n})?",
  "bulk.confirm.endSessions": "Завершить все сессии учётных записей ({n})?",
  "bulk.confirm.delete": "Удалить учётные записи ({n})?",
  "bulk.body.lock": "Войти нельзя до разблокировки; сессии и токены завершаются, каждому человеку придёт уведомление.",
  "bulk.body.unlock": "Снова можно будет войти.",
  "bulk.body.endSessions": "Все браузеры и приложения выходят из учётной записи; refresh-токены перестают действовать.",
  "bulk.body.delete": "Учётные записи и всё, что у них есть, удаляются. Отменить нельзя.",
  "bulk.go.lock": "Заблокировать ({n})",
  "bulk.go.unlock": "Разблокировать ({n})",
  "bulk.go.endSessions": "Завершить сессии ({n})",
  "bulk.go.delete": "Удалить ({n})",
  "bulk.cancel": "Отмена",
  "bulk.done": "Выполнено для учётных записей: {n}.",
  "bulk.refused": "Отказано ({n}): {list}.",
  "bulk.pageSize": "Строк на странице",
};

const DICTIONARIES: Record<TLang, Record<TBulkKey, string>> = { en, ru };

export function useBulkText(): (key: TBulkKey, params?: Record<string, string>) => string {
  return useAreaText(DICTIONARIES);
}
