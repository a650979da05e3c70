"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The words of a user's passkeys card in the console.
const en = {
  "passkeys.title": "Passkeys",
  "passkeys.loading": "Loading passkeys…",
  "passkeys.loadFailed": "Could not load the passkeys.",
  "passkeys.none": "No passkey.",
  "passkeys.col.name": "Name",
  "passkeys.col.kind": "Kind",
  "passkeys.col.authenticator": "Authenticator",
  "passkeys.unknownAuthenticator": "Unknown authenticator",
  "passkeys.col.added": "Added",
  "passkeys.col.lastUsed": "Last used",
  "passkeys.synced": "synced",
  "passkeys.device": "device-bound",
  "passkeys.never": "never",
  "passkeys.remove": "Remove",
  "passkeys.removeTitle": "Remove the passkey {name}?",
  "passkeys.removeBody": "It will no longer sign this person in. They are told at their confirmed addresses.",
  "passkeys.removed": "Passkey {name} removed.",
  "passkeys.gone": "That passkey was removed already.",
  "passkeys.cancel": "Cancel",
};

type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  "passkeys.title": "Ключи входа",
  "passkeys.loading": "Загрузка ключей входа…",
  "passkeys.loadFailed": "Не удалось загрузить ключи входа.",
  "passkeys.none": "Ключей входа нет.",
  "passkeys.col.name": "Название",
  "passkeys.col.kind": "Вид",
  "passkeys.col.authenticator": "Аутентификатор",
  "passkeys.unknownAuthenticator": "Неизвестный аутентификатор",
  "passkeys.col.added": "Добавлен",
  "passkeys.col.lastUsed": "Последний вход",
  "passkeys.synced": "синхронизируемый",
  "passkeys.device": "на одном устройстве",
  "passkeys.never": "никогда",
  "passkeys.remove": "Удалить",
  "passkeys.removeTitle": "Удалить ключ входа {name}?",
  "passkeys.removeBody": "Он перестанет впускать этого человека. Человеку придёт уведомление на подтверждённые адреса.",
  "passkeys.removed": "Ключ входа {name} удалён.",
  "passkeys.gone": "Этот ключ входа уже удалён.",
  "passkeys.cancel": "Отмена",
};

const TEXT: Record<TLang, Record<TKey, string>> = { en, ru };

export function usePasskeysConsoleText() {
  return useAreaText(TEXT);
}
