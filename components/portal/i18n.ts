"use client";
import type { TLang } from "../i18n.ts";
import { useAreaText } from "../i18n-provider.tsx";

// The portal's own words. Pages of the portal add their keys here or keep a file of their own.
const en = {
  "portal.title": "Your account",
  "portal.langHint": "Switch the account pages to Russian",
  "header.signedInAs": "Signed in as",
  "header.signOut": "Sign out",
  "nav.label": "Account sections",
  "nav.overview": "Overview",
  "nav.profile": "Profile",
  "nav.password": "Password",
  "nav.securityQuestion": "Security question",
  "nav.devices": "Devices",
  "nav.twoFactor": "Two-factor sign-in",
  "nav.passkeys": "Passkeys",
  "nav.linked": "Linked accounts",
  "nav.consents": "Consents",
  "nav.events": "Events",

  "signIn.title": "Sign in to your account",
  "signIn.subtitle": "Your profile, devices, the applications you allowed and your security events.",
  "signIn.submit": "Sign in",
  "signIn.pending": "Redirecting…",
  "signIn.failed": "Sign-in could not be completed. Try again.",
  "signIn.denied": "Sign-in was refused.",

  "overview.title": "Overview",
  "overview.sub": "Account id",
  "overview.name": "Name",
  "overview.email": "E-mail",
  "overview.phone": "Phone",
  "overview.confirmed": "confirmed",
  "overview.unconfirmed": "not confirmed",
  "overview.none": "not set",
  "overview.loading": "Loading…",
  "overview.failed": "Could not load your account.",
  "overview.retry": "Retry",
};

export type TPortalKey = keyof typeof en;

const ru: Record<TPortalKey, string> = {
  "portal.title": "Личный кабинет",
  "portal.langHint": "Переключить личный кабинет на английский",
  "header.signedInAs": "Вы вошли как",
  "header.signOut": "Выйти",
  "nav.label": "Разделы личного кабинета",
  "nav.overview": "Обзор",
  "nav.profile": "Профиль",
  "nav.password": "Пароль",
  "nav.securityQuestion": "Контрольный вопрос",
  "nav.devices": "Устройства",
  "nav.twoFactor": "Двухфакторный вход",
  "nav.passkeys": "Ключи входа",
  "nav.linked": "Связанные учётные записи",
  "nav.consents": "Разрешения",
  "nav.events": "События",

  "signIn.title": "Вход в личный кабинет",
  "signIn.subtitle": "Ваш профиль, устройства, приложения, которым вы дали доступ, и события безопасности.",
  "signIn.submit": "Войти",
  "signIn.pending": "Переход…",
  "signIn.failed": "Не удалось завершить вход. Повторите попытку.",
  "signIn.denied": "Во входе отказано.",

  "overview.title": "Обзор",
  "overview.sub": "Идентификатор",
  "overview.name": "Имя",
  "overview.email": "Электронная почта",
  "overview.phone": "Телефон",
  "overview.confirmed": "подтверждён",
  "overview.unconfirmed": "не подтверждён",
  "overview.none": "не указан",
  "overview.loading": "Загрузка…",
  "overview.failed": "Не удалось загрузить данные учётной записи.",
  "overview.retry": "Повторить",
};

export const PORTAL_TEXT: Record<TLang, Record<TPortalKey, string>> = { en, ru };

export function usePortalText() {
  return useAreaText(PORTAL_TEXT);
}
