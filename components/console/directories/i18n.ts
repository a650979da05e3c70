"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The console's words for directories.
const en = {
  "dir.title": "Directories",
  "dir.intro": "LDAP directories and Active Directory domains whose people sign in here with their directory password. They are configured in the import document; a synchronised one is read on its schedule, or now.",
  "dir.loading": "Loading…",
  "dir.loadFailed": "Could not load the directories.",
  "dir.retry": "Try again",
  "dir.empty": "No directory is configured. Add one in the import document's directories section.",
  "dir.col.directory": "Directory",
  "dir.col.url": "Address",
  "dir.col.mode": "Mode",
  "dir.col.lastRun": "Last synchronisation",
  "dir.col.actions": "Actions",
  "dir.mode.on_demand": "on demand (at sign-in)",
  "dir.mode.synchronised": "synchronised, every {minutes} min",
  "dir.mode.manual": "synchronised, when asked",
  "dir.off": "switched off",
  "dir.never": "never",
  "dir.run.running": "running: {seen} read, {created} created, {updated} updated…",
  "dir.run.done": "{kind}, {when}: {seen} read, {created} created, {updated} updated, {locked} locked, {deleted} deleted, {failed} failed",
  "dir.run.failed": "{kind} failed, {when}: {error}",
  "dir.kind.full": "full",
  "dir.kind.incremental": "incremental",
  "dir.sync": "Sync now",
  "dir.syncFull": "Full sync",
  "dir.history": "History",
  "dir.started": "Synchronisation of {name} started.",
  "dir.historyTitle": "Synchronisations of {name}",
  "dir.runs.col.started": "Started",
  "dir.runs.col.kind": "Kind",
  "dir.runs.col.status": "Status",
  "dir.runs.col.counts": "Read / created / updated / locked / unlocked / deleted / failed",
  "dir.runs.col.groups": "Groups created / updated, members added / removed",
  "dir.runs.failures": "Failures",
  "dir.status.running": "running",
  "dir.status.done": "done",
  "dir.status.failed": "failed",
  "dir.close": "Close",
};

const ru: Record<keyof typeof en, string> = {
  "dir.title": "Каталоги",
  "dir.intro": "Каталоги LDAP и домены Active Directory, люди из которых входят сюда с паролем каталога. Они настраиваются в документе импорта; синхронизируемый каталог читается по расписанию или сейчас.",
  "dir.loading": "Загрузка…",
  "dir.loadFailed": "Не удалось загрузить каталоги.",
  "dir.retry": "Повторить",
  "dir.empty": "Каталоги не настроены. Добавьте каталог в раздел directories документа импорта.",
  "dir.col.directory": "Каталог",
  "dir.col.url": "Адрес",
  "dir.col.mode": "Режим",
  "dir.col.lastRun": "Последняя синхронизация",
  "dir.col.actions": "Действия",
  "dir.mode.on_demand": "по запросу (при входе)",
  "dir.mode.synchronised": "синхронизируется каждые {minutes} мин",
  "dir.mode.manual": "синхронизируется по команде",
  "dir.off": "выключен",
  "dir.never": "ни разу",
  "dir.run.running": "идёт: прочитано {seen}, создано {created}, обновлено {updated}…",
  "dir.run.done": "{kind}, {when}: прочитано {seen}, создано {created}, обновлено {updated}, заблокировано {locked}, удалено {deleted}, ошибок {failed}",
  "dir.run.failed": "{kind}, {when}, не удалась: {error}",
  "dir.kind.full": "полная",
  "dir.kind.incremental": "по изменениям",
  "dir.sync": "Синхронизировать",
  "dir.syncFull": "Полная синхронизация",
  "dir.history": "История",
  "dir.started": "Синхронизация каталога {name} запущена.",
  "dir.historyTitle": "Синхронизации каталога {name}",
  "dir.runs.col.started": "Начало",
  "dir.runs.col.kind": "Вид",
  "dir.runs.col.status": "Состояние",
  "dir.runs.col.counts": "Прочитано / создано / обновлено / заблокировано / разблокировано / удалено / ошибок",
  "dir.runs.col.groups": "Групп создано / изменено, участников добавлено / убрано",
  "dir.runs.failures": "Ошибки",
  "dir.status.running": "идёт",
  "dir.status.done": "завершена",
  "dir.status.failed": "не удалась",
  "dir.close": "Закрыть",
};

const DICTIONARIES: Record<TLang, typeof en> = { en, ru };
export type TDirKey = keyof typeof en;
export type TDirText = (key: TDirKey, params?: Record<string, string>) => string;

export function useDirText(): TDirText {
  return useAreaText(DICTIONARIES);
}
