"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The words of the devices, consents and events pages.
const en = {
  "devices.title": "Devices",
  "devices.intro": "Computers, phones and browsers you signed in from. Sign out one you do not recognise or no longer use.",
  "devices.loadFailed": "Could not load your devices.",
  "devices.empty": "No devices yet.",
  "devices.caption": "Your devices",
  "devices.col.device": "Device",
  "devices.col.firstSeen": "First sign-in",
  "devices.col.lastSeen": "Last seen",
  "devices.col.ip": "Last IP address",
  "devices.col.actions": "Actions",
  "devices.this": "This device",
  "devices.unknownName": "Unknown browser",
  "devices.kind.desktop": "Computer",
  "devices.kind.mobile": "Phone",
  "devices.kind.tablet": "Tablet",
  "devices.kind.unknown": "Device",
  "devices.kind.app_instance": "App on a phone",
  "devices.signOut": "Sign out",
  "devices.confirmTitle": "Sign out {name}?",
  "devices.confirmBody": "Its sessions end at once, and applications you signed in to there lose access.",
  "devices.confirmBodyThis": "This is the device you are using now: you will be signed out here too.",
  "devices.signedOut": "{name} is signed out.",
  "devices.gone": "That device was already signed out.",

  "consents.title": "Consents",
  "consents.intro": "Applications you allowed to use your account. Revoking takes the access back; the application asks again the next time you sign in to it.",
  "consents.loadFailed": "Could not load your consents.",
  "consents.empty": "You have not allowed any application yet.",
  "consents.caption": "Applications you allowed",
  "consents.col.app": "Application",
  "consents.col.scopes": "Allowed",
  "consents.col.updated": "Since",
  "consents.col.actions": "Actions",
  "consents.revoke": "Revoke",
  "consents.confirmTitle": "Revoke the access of {name}?",
  "consents.confirmBody": "{name} can no longer act on your behalf and loses the access it holds now.",
  "consents.revoked": "The access of {name} is revoked.",
  "consents.gone": "That consent was already revoked.",
  "saml.title": "Applications you can open",
  "saml.intro": "Applications that sign you in with SAML. Opening one signs you in to it with this account.",
  "saml.open": "Open {name}",
  "scope.openid": "Your account id",
  "scope.profile": "Your name",
  "scope.email": "Your e-mail address",
  "scope.phone": "Your phone number",
  "scope.offline_access": "Access while you are away",
  "scope.groups": "Your groups",
  "scope.rights": "Your rights in that application",
  "scope.attribute": "Your {name}",

  "events.title": "Events",
  "events.intro": "Sign-ins, changes to your account and other security events, newest first.",
  "events.loadFailed": "Could not load your events.",
  "events.empty": "No events yet.",
  "events.emptyFiltered": "No events of this type.",
  "events.caption": "Your security events",
  "events.filter": "Type",
  "events.filterAll": "All events",
  "events.more": "More",
  "events.loadingMore": "Loading…",
  "events.col.time": "Time",
  "events.col.type": "Event",
  "events.col.client": "Application",
  "events.col.ip": "IP address",
  "events.col.device": "Browser",
  "events.col.details": "Details",
  "events.portal": "This account portal",
  "events.console": "by an administrator",

  "common.cancel": "Cancel",
};

export type TSecurityKey = keyof typeof en;

const ru: Record<TSecurityKey, string> = {
  "devices.title": "Устройства",
  "devices.intro": "Компьютеры, телефоны и браузеры, с которых вы входили. Выйдите на устройстве, которое не узнаёте или которым больше не пользуетесь.",
  "devices.loadFailed": "Не удалось загрузить устройства.",
  "devices.empty": "Устройств пока нет.",
  "devices.caption": "Ваши устройства",
  "devices.col.device": "Устройство",
  "devices.col.firstSeen": "Первый вход",
  "devices.col.lastSeen": "Последняя активность",
  "devices.col.ip": "Последний IP-адрес",
  "devices.col.actions": "Действия",
  "devices.this": "Это устройство",
  "devices.unknownName": "Неизвестный браузер",
  "devices.kind.desktop": "Компьютер",
  "devices.kind.mobile": "Телефон",
  "devices.kind.tablet": "Планшет",
  "devices.kind.unknown": "Устройство",
  "devices.kind.app_instance": "Приложение на телефоне",
  "devices.signOut": "Выйти",
  "devices.confirmTitle": "Выйти на устройстве {name}?",
  "devices.confirmBody": "Его сеансы сразу завершатся, а приложения, в которые вы там входили, потеряют доступ.",
  "devices.confirmBodyThis": "Это устройство, которым вы пользуетесь сейчас: здесь вы тоже выйдете.",
  "devices.signedOut": "Выполнен выход на устройстве {name}.",
  "devices.gone": "На этом устройстве уже выполнен выход.",

  "consents.title": "Разрешения",
  "consents.intro": "Приложения, которым вы разрешили пользоваться вашей учётной записью. Отзыв забирает доступ; при следующем входе приложение спросит снова.",
  "consents.loadFailed": "Не удалось загрузить разрешения.",
  "consents.empty": "Вы пока не давали разрешений приложениям.",
  "consents.caption": "Приложения, которым вы дали разрешение",
  "consents.col.app": "Приложение",
  "consents.col.scopes": "Разрешено",
  "consents.col.updated": "С",
  "consents.col.actions": "Действия",
  "consents.revoke": "Отозвать",
  "consents.confirmTitle": "Отозвать доступ приложения {name}?",
  "consents.confirmBody": "{name} больше не сможет действовать от вашего имени и потеряет текущий доступ.",
  "consents.revoked": "Доступ приложения {name} отозван.",
  "consents.gone": "Это разрешение уже отозвано.",
  "saml.title": "Приложения, которые можно открыть",
  "saml.intro": "Приложения, в которые вы входите по SAML. Открыв приложение, вы войдёте в него с этой учётной записью.",
  "saml.open": "Открыть {name}",
  "scope.openid": "Идентификатор учётной записи",
  "scope.profile": "Ваше имя",
  "scope.email": "Адрес почты",
  "scope.phone": "Номер телефона",
  "scope.offline_access": "Доступ в ваше отсутствие",
  "scope.groups": "Ваши группы",
  "scope.rights": "Ваши права в этом приложении",
  "scope.attribute": "Поле «{name}»",

  "events.title": "События",
  "events.intro": "Входы, изменения учётной записи и другие события безопасности; сначала новые.",
  "events.loadFailed": "Не удалось загрузить события.",
  "events.empty": "Событий пока нет.",
  "events.emptyFiltered": "Событий этого типа нет.",
  "events.caption": "Ваши события безопасности",
  "events.filter": "Тип",
  "events.filterAll": "Все события",
  "events.more": "Показать ещё",
  "events.loadingMore": "Загрузка…",
  "events.col.time": "Время",
  "events.col.type": "Событие",
  "events.col.client": "Приложение",
  "events.col.ip": "IP-адрес",
  "events.col.device": "Браузер",
  "events.col.details": "Подробности",
  "events.portal": "Этот личный кабинет",
  "events.console": "администратором",

  "common.cancel": "Отмена",
};

export const SECURITY_TEXT: Record<TLang, Record<TSecurityKey, string>> = { en, ru };

export type TSecurityText = (key: TSecurityKey, params?: Record<string, string>) => string;

export function useSecurityText(): TSecurityText {
  return useAreaText(SECURITY_TEXT);
}

/** A scope in words where the portal has them; others as they are named. */
export function scopeWords(s: TSecurityText, scope: string): string {
  if (scope.startsWith("attribute:")) return s("scope.attribute", { name: scope.slice("attribute:".length) });
  const key = `scope.${scope}`;
  return key in en ? s(key as TSecurityKey) : scope;
}
