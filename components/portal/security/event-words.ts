import type { TLang } from "../../i18n.ts";

// Security event types in words, in the order the events page offers them as a filter. A type not
// named here (recorded by a newer part of the service) is shown as it is recorded.
const WORDS: Record<string, Record<TLang, string>> = {
  "user.signed_in": { en: "Signed in", ru: "Вход" },
  "user.sign_in_failed": { en: "Failed sign-in", ru: "Неудачная попытка входа" },
  "user.signed_out": { en: "Signed out", ru: "Выход" },
  "user.sessions_reset": { en: "Signed out everywhere", ru: "Выход на всех устройствах" },
  "user.device_removed": { en: "Device signed out", ru: "Выход на устройстве" },
  "user.app_instance_removed": { en: "App installation removed", ru: "Установка приложения удалена" },
  "user.qr_confirmed": { en: "QR sign-in confirmed", ru: "Вход по QR-коду подтверждён" },
  "user.qr_refused": { en: "QR sign-in refused", ru: "Вход по QR-коду отклонён" },
  "user.consent_granted": { en: "Application allowed", ru: "Приложению дано разрешение" },
  "user.consent_denied": { en: "Application refused", ru: "Приложению отказано" },
  "user.consent_revoked": { en: "Application's access revoked", ru: "Разрешение приложения отозвано" },
  "user.attributes_changed": { en: "Profile changed", ru: "Профиль изменён" },
  "user.contact_change_started": { en: "Change of e-mail or phone started", ru: "Начата смена почты или телефона" },
  "user.contact_code_resent": { en: "New confirmation code sent", ru: "Отправлен новый код подтверждения" },
  "user.contact_code_wrong": { en: "Wrong confirmation code", ru: "Неверный код подтверждения" },
  "user.contact_confirmed": { en: "E-mail or phone confirmed", ru: "Почта или телефон подтверждены" },
  "user.contact_confirmation_failed": { en: "Confirmation failed", ru: "Подтверждение не удалось" },
  "user.registered": { en: "Account registered", ru: "Учётная запись зарегистрирована" },
  "user.created": { en: "Account created", ru: "Учётная запись создана" },
  "user.fa_bound": { en: "External account linked", ru: "Внешняя учётная запись связана" },
  "user.fa_unbound": { en: "External account unlinked", ru: "Внешняя учётная запись отвязана" },
  "oauth.code_reused": { en: "Sign-in code used twice: access revoked", ru: "Код входа использован повторно: доступ отозван" },
  "oauth.refresh_reused": { en: "Old token used again: access revoked", ru: "Старый токен использован повторно: доступ отозван" },
  "token.revoked": { en: "Token revoked", ru: "Токен отозван" },
};

export const KNOWN_EVENT_TYPES: readonly string[] = Object.keys(WORDS);

export function eventWords(type: string, lang: TLang): string {
  return WORDS[type]?.[lang] ?? type;
}
