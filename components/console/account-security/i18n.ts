"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// An account's state, security question and properties on the user page.
const en = {
  title: "Account security",
  loading: "Loading…",
  loadFailed: "Could not load the account's security settings.",
  retry: "Retry",
  "state.label": "State",
  "state.initial": "Initial: has not signed in yet.",
  "state.active": "Active: last signed in {time}.",
  "state.inactivityLock": "Locked for inactivity since {time}.",
  "state.untouchable": "Untouchable: never locked for inactivity.",
  "state.untouchableTill": "Untouchable until {time}: not locked for inactivity until then.",
  "state.lockOff": "The inactivity lock is off (IDP_INACTIVITY_LOCK_DAYS=0).",
  "state.lockOn": "Accounts are locked after {days} days without a sign-in.",
  "state.unlock": "Unlock",
  "state.unlocked": "The account is unlocked and active again.",
  "state.until": "Untouchable until (empty: for ever)",
  "state.makeUntouchable": "Make untouchable",
  "state.madeUntouchable": "The account is untouchable.",
  "state.endUntouchable": "End exemption",
  "state.ended": "The exemption ended.",
  "secqsn.label": "Security question",
  "secqsn.set": "Set by the user.",
  "secqsn.none": "Not set.",
  "props.label": "Properties",
  "props.empty": "No properties.",
  "props.col.name": "Name",
  "props.col.value": "Value",
  "props.col.actions": "Actions",
  "props.remove": "Remove",
  "props.name": "Name",
  "props.type": "Type",
  "props.type.string": "Text",
  "props.type.number": "Number",
  "props.type.boolean": "Yes/no",
  "props.value": "Value",
  "props.add": "Add or change",
  "props.saved": "Properties saved.",
  "props.notNumber": "Enter a number.",
  failed: "That did not work: {message}",
};
type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  title: "Безопасность учётной записи",
  loading: "Загрузка…",
  loadFailed: "Не удалось загрузить настройки безопасности учётной записи.",
  retry: "Повторить",
  "state.label": "Состояние",
  "state.initial": "Начальное: пользователь ещё не входил.",
  "state.active": "Активна: последний вход {time}.",
  "state.inactivityLock": "Заблокирована за неактивность с {time}.",
  "state.untouchable": "Неприкосновенна: не блокируется за неактивность.",
  "state.untouchableTill": "Неприкосновенна до {time}: до тех пор не блокируется за неактивность.",
  "state.lockOff": "Блокировка за неактивность выключена (IDP_INACTIVITY_LOCK_DAYS=0).",
  "state.lockOn": "Учётные записи блокируются после {days} дн. без входа.",
  "state.unlock": "Разблокировать",
  "state.unlocked": "Учётная запись разблокирована и снова активна.",
  "state.until": "Неприкосновенна до (пусто — навсегда)",
  "state.makeUntouchable": "Сделать неприкосновенной",
  "state.madeUntouchable": "Учётная запись неприкосновенна.",
  "state.endUntouchable": "Снять неприкосновенность",
  "state.ended": "Неприкосновенность снята.",
  "secqsn.label": "Контрольный вопрос",
  "secqsn.set": "Задан пользователем.",
  "secqsn.none": "Не задан.",
  "props.label": "Свойства",
  "props.empty": "Свойств нет.",
  "props.col.name": "Имя",
  "props.col.value": "Значение",
  "props.col.actions": "Действия",
  "props.remove": "Удалить",
  "props.name": "Имя",
  "props.type": "Тип",
  "props.type.string": "Текст",
  "props.type.number": "Число",
  "props.type.boolean": "Да/нет",
  "props.value": "Значение",
  "props.add": "Добавить или изменить",
  "props.saved": "Свойства сохранены.",
  "props.notNumber": "Введите число.",
  failed: "Не получилось: {message}",
};

const DICTIONARIES: Record<TLang, Record<TKey, string>> = { en, ru };

export type TAccountSecurityText = (key: TKey, params?: Record<string, string>) => string;

export function useAccountSecurityText(): TAccountSecurityText {
  return useAreaText(DICTIONARIES);
}
