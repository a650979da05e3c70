"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The words of the portal's passkeys page.
const en = {
  "passkeys.title": "Passkeys",
  "passkeys.intro": "A passkey signs you in with your fingerprint, face, screen lock or security key instead of a password. It only works on this service's own pages, so a look-alike site cannot use it.",
  "passkeys.loadFailed": "Could not load your passkeys.",
  "passkeys.list": "Your passkeys",
  "passkeys.none": "No passkey yet.",
  "passkeys.col.name": "Name",
  "passkeys.col.kind": "Kind",
  "passkeys.col.authenticator": "Authenticator",
  "passkeys.unknownAuthenticator": "Unknown authenticator",
  "passkeys.notOffered": "Adding passkeys is turned off by your administrator. The passkeys you have keep working.",
  "passkeys.forConsole": "The console asks its administrators to have a passkey: add one here, then go back to the console.",
  "passkeys.col.added": "Added",
  "passkeys.col.lastUsed": "Last used",
  "passkeys.synced": "Synced across your devices",
  "passkeys.device": "On one device",
  "passkeys.never": "never",
  "passkeys.add": "Add a passkey",
  "passkeys.adding": "Waiting for your device…",
  "passkeys.name": "Name of the new passkey",
  "passkeys.nameHint": "So you can tell it apart later, e.g. \"Work laptop\".",
  "passkeys.defaultName": "Passkey",
  "passkeys.added": "Passkey {name} added.",
  "passkeys.cancelled": "Adding the passkey was cancelled or took too long. Try again when your device is ready.",
  "passkeys.already": "This device has a passkey for your account already.",
  "passkeys.unsupported": "This browser cannot create passkeys.",
  "passkeys.rename": "Rename",
  "passkeys.renameTitle": "Rename {name}",
  "passkeys.save": "Save",
  "passkeys.renamed": "Renamed to {name}.",
  "passkeys.remove": "Remove",
  "passkeys.removeTitle": "Remove {name}?",
  "passkeys.removeBody": "It will no longer sign you in. The device may keep it until you delete it there too.",
  "passkeys.removed": "{name} removed.",
  "passkeys.cancel": "Cancel",
};

type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  "passkeys.title": "Ключи входа",
  "passkeys.intro": "Ключ входа (passkey) впускает по отпечатку пальца, лицу, блокировке экрана или аппаратному ключу вместо пароля. Он работает только на страницах этой службы, поэтому поддельный сайт не сможет им воспользоваться.",
  "passkeys.loadFailed": "Не удалось загрузить ключи входа.",
  "passkeys.list": "Ваши ключи входа",
  "passkeys.none": "Ключей входа пока нет.",
  "passkeys.col.name": "Название",
  "passkeys.col.kind": "Вид",
  "passkeys.col.authenticator": "Аутентификатор",
  "passkeys.unknownAuthenticator": "Неизвестный аутентификатор",
  "passkeys.notOffered": "Добавление ключей входа отключено администратором. Уже добавленные ключи продолжают работать.",
  "passkeys.forConsole": "Консоль требует от администраторов ключ входа: добавьте его здесь и вернитесь в консоль.",
  "passkeys.col.added": "Добавлен",
  "passkeys.col.lastUsed": "Последний вход",
  "passkeys.synced": "Синхронизируется между устройствами",
  "passkeys.device": "На одном устройстве",
  "passkeys.never": "ещё не было",
  "passkeys.add": "Добавить ключ входа",
  "passkeys.adding": "Ждём ваше устройство…",
  "passkeys.name": "Название нового ключа",
  "passkeys.nameHint": "Чтобы потом его узнать, например «Рабочий ноутбук».",
  "passkeys.defaultName": "Ключ входа",
  "passkeys.added": "Ключ входа {name} добавлен.",
  "passkeys.cancelled": "Добавление ключа отменено или заняло слишком много времени. Повторите, когда устройство будет готово.",
  "passkeys.already": "На этом устройстве уже есть ключ входа для вашей учётной записи.",
  "passkeys.unsupported": "Этот браузер не умеет создавать ключи входа.",
  "passkeys.rename": "Переименовать",
  "passkeys.renameTitle": "Переименовать {name}",
  "passkeys.save": "Сохранить",
  "passkeys.renamed": "Новое название: {name}.",
  "passkeys.remove": "Удалить",
  "passkeys.removeTitle": "Удалить {name}?",
  "passkeys.removeBody": "Он перестанет впускать в учётную запись. Устройство может хранить его, пока вы не удалите его и там.",
  "passkeys.removed": "{name} удалён.",
  "passkeys.cancel": "Отмена",
};

const TEXT: Record<TLang, Record<TKey, string>> = { en, ru };

export function usePasskeysText() {
  return useAreaText(TEXT);
}
