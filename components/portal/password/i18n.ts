"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The change-password page's words; the policy's messages come from the server in the same language.
const en = {
  "password.title": "Password",
  "password.intro": "Changing the password signs you out everywhere else: other browsers, phones and applications. This browser stays signed in.",
  "password.inDirectory": "Your password is kept in {name}, your organisation's directory: change it there.",
  "password.writtenToDirectory": "Your new password is written into {name}, your organisation's directory, whose own rules apply too.",
  "password.current": "Current password",
  "password.new": "New password",
  "password.repeat": "New password again",
  "password.hint": "At least {min} characters. A long phrase of several words is easy to remember and hard to guess; any language works.",
  "password.mismatch": "The two new passwords differ",
  "password.policy": "The new password does not fit the password policy:",
  "password.save": "Change password",
  "password.saving": "Changing…",
  "password.changed": "Your password is changed. Every other session has ended.",
  "password.show": "Show passwords",
};
export type TPasswordKey = keyof typeof en;

const ru: Record<TPasswordKey, string> = {
  "password.title": "Пароль",
  "password.intro": "После смены пароля вы выйдете на всех других устройствах: в браузерах, телефонах и приложениях. В этом браузере вход сохранится.",
  "password.inDirectory": "Ваш пароль хранится в каталоге вашей организации ({name}): изменяйте его там.",
  "password.writtenToDirectory": "Новый пароль будет записан в каталог вашей организации ({name}); действуют и его правила.",
  "password.current": "Текущий пароль",
  "password.new": "Новый пароль",
  "password.repeat": "Новый пароль ещё раз",
  "password.hint": "Не менее {min} символов. Длинную фразу из нескольких слов легко запомнить и трудно подобрать; подойдёт любой язык.",
  "password.mismatch": "Новые пароли не совпадают",
  "password.policy": "Новый пароль не соответствует парольной политике:",
  "password.save": "Сменить пароль",
  "password.saving": "Смена…",
  "password.changed": "Пароль изменён. Все остальные сеансы завершены.",
  "password.show": "Показать пароли",
};

const TEXT: Record<TLang, Record<TPasswordKey, string>> = { en, ru };

export function usePasswordText(): (key: TPasswordKey, params?: Record<string, string>) => string {
  return useAreaText(TEXT);
}
