"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The words of the portal's second-factor page.
const en = {
  "otp.title": "Two-factor sign-in",
  "otp.intro": "An authenticator app (Google Authenticator, FreeOTP, Aegis…) shows a new code every 30 seconds. With the second factor on, sign-in asks for it after your password.",
  "otp.loadFailed": "Could not load your authenticators.",
  "otp.factorOn": "Two-factor sign-in is on.",
  "otp.factorOff": "Two-factor sign-in is off.",
  "otp.turnOn": "Turn on",
  "otp.turnOff": "Turn off",
  "otp.needsGenerator": "Add an authenticator app first.",
  "otp.list": "Your authenticators",
  "otp.none": "No authenticator yet.",
  "otp.col.name": "Name",
  "otp.col.kind": "Kind",
  "otp.col.added": "Added",
  "otp.col.lastUsed": "Last used",
  "otp.never": "never",
  "otp.remove": "Remove",
  "otp.removeTitle": "Remove {name}?",
  "otp.removeBody": "Its codes will no longer work.",
  "otp.lastOne": "Turn two-factor sign-in off before removing your last authenticator, or add another one first.",
  "otp.removed": "{name} removed.",
  "otp.gone": "It was removed already.",
  "otp.add": "Add an authenticator app",
  "otp.replaceNote": "Adding one replaces the authenticator app you added here before.",
  "otp.scan": "Scan this code with the app, or type the key in by hand:",
  "otp.secret": "Key",
  "otp.name": "Name (optional)",
  "otp.code": "Code the app shows",
  "otp.confirm": "Confirm",
  "otp.confirming": "Checking…",
  "otp.cancel": "Cancel",
  "otp.added": "Authenticator added.",
  "otp.wrongCode": "That code is not right. Check the time on your phone and enter the current code.",
  "otp.expired": "This key has expired. Start again.",
  "otp.cancelLabel": "Cancel",
};

const ru: Record<keyof typeof en, string> = {
  "otp.title": "Двухфакторный вход",
  "otp.intro": "Приложение-аутентификатор (Google Authenticator, FreeOTP, Aegis…) показывает новый код каждые 30 секунд. Когда второй фактор включён, после пароля вход спросит этот код.",
  "otp.loadFailed": "Не удалось получить ваши аутентификаторы.",
  "otp.factorOn": "Двухфакторный вход включён.",
  "otp.factorOff": "Двухфакторный вход выключен.",
  "otp.turnOn": "Включить",
  "otp.turnOff": "Выключить",
  "otp.needsGenerator": "Сначала добавьте приложение-аутентификатор.",
  "otp.list": "Ваши аутентификаторы",
  "otp.none": "Аутентификаторов пока нет.",
  "otp.col.name": "Название",
  "otp.col.kind": "Тип",
  "otp.col.added": "Добавлен",
  "otp.col.lastUsed": "Последнее использование",
  "otp.never": "никогда",
  "otp.remove": "Удалить",
  "otp.removeTitle": "Удалить {name}?",
  "otp.removeBody": "Его коды перестанут действовать.",
  "otp.lastOne": "Выключите двухфакторный вход, прежде чем удалять последний аутентификатор, или сначала добавьте другой.",
  "otp.removed": "{name} удалён.",
  "otp.gone": "Он уже удалён.",
  "otp.add": "Добавить приложение-аутентификатор",
  "otp.replaceNote": "Новое приложение заменит добавленное здесь раньше.",
  "otp.scan": "Отсканируйте код приложением или введите ключ вручную:",
  "otp.secret": "Ключ",
  "otp.name": "Название (необязательно)",
  "otp.code": "Код из приложения",
  "otp.confirm": "Подтвердить",
  "otp.confirming": "Проверка…",
  "otp.cancel": "Отмена",
  "otp.added": "Аутентификатор добавлен.",
  "otp.wrongCode": "Код неверный. Проверьте время на телефоне и введите текущий код.",
  "otp.expired": "Срок действия ключа истёк. Начните заново.",
  "otp.cancelLabel": "Отмена",
};

export type TOtpPortalKey = keyof typeof en;
const DICTIONARIES: Record<TLang, Record<TOtpPortalKey, string>> = { en, ru };

export function useOtpPortalText(): (key: TOtpPortalKey, params?: Record<string, string>) => string {
  return useAreaText(DICTIONARIES);
}
