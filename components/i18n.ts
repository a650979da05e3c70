// Shared by server components (to pick the language) and client components (to print labels).

import { fillIn } from "@/server/http/locale";

export const LANGS = ["en", "ru"] as const;
export type TLang = (typeof LANGS)[number];

/** Cookie set by the language toggle; it wins over Accept-Language. */
export const LANG_COOKIE = "idp_lang";

const en = {
  "app.title": "Identity console",
  "lang.toggle": "Русский",
  "lang.toggleHint": "Switch the console to Russian",
  "header.signedInAs": "Signed in as",
  "header.signOut": "Sign out",
  "nav.users": "Users",
  "nav.attributes": "Attributes",
  "nav.clients": "Client applications",
  "nav.outbox": "Outbox",
  "nav.delivery": "Delivery",
  "nav.templates": "Message templates",
  "nav.events": "Events",
  "nav.passwordPolicy": "Password policy",
  "nav.passkeyPolicy": "Passkey policy",
  "nav.signingKeys": "Signing keys",
  "nav.otpDevices": "OTP devices",
  "nav.providers": "External providers",
  "nav.security": "Security",
  "nav.messages": "Pages & messages",
  "nav.branding": "Branding",
  "nav.access": "Access",
  "nav.rights": "Rights",
  "nav.rightDefinitions": "Right definitions",
  "nav.groups": "Groups",
  "nav.groupProfiles": "Group profiles",

  "signIn.title": "Sign in to the console",
  "signIn.subtitle": "Administrators only.",
  "signIn.submit": "Sign in",
  "signIn.pending": "Redirecting…",
  "signIn.notAdmin": "The account you signed in with is not an administrator. Sign in with an administrator's account.",
  "signIn.ended": "Your console session has ended: the account was locked, lost the administrator role or was signed out everywhere. Sign in again.",
  "signIn.failed": "Sign-in could not be completed. Try again.",

  "clients.title": "Client applications",
  "clients.search": "Search",
  "clients.searchPlaceholder": "Id or name",
  "clients.new": "New client",
  "clients.loadMore": "Load more",
  "clients.loading": "Loading…",
  "clients.empty": "No client applications yet.",
  "clients.emptyHint": "Create one to let an application obtain tokens.",
  "clients.noMatch": "No client applications match “{q}”.",
  "clients.loadFailed": "Could not load client applications.",
  "clients.retry": "Retry",
  "clients.col.id": "Id",
  "clients.col.name": "Name",
  "clients.col.scopes": "System scopes",
  "clients.col.enabled": "Enabled",
  "clients.col.rest": "REST password",
  "clients.col.actions": "Actions",
  "clients.yes": "yes",
  "clients.no": "no",
  "clients.edit": "Edit",
  "clients.rotate": "Rotate secret",
  "clients.setRest": "Set REST password",
  "clients.removeRest": "Remove REST password",
  "clients.builtin": "built-in",
  "clients.builtinHint": "The sign-in client of this console or of the account portal. The server keeps it as it must be.",

  "form.createTitle": "New client application",
  "form.editTitle": "Edit {id}",
  "form.id": "Client id",
  "form.name": "Name",
  "form.scopes": "System scopes",
  "form.userScopes": "User scopes",
  "form.redirectUris": "Redirect URIs",
  "form.tlsCNs": "TLS certificate CNs",
  "form.enabled": "Enabled",
  "form.protocol": "OAuth 2.0 and OpenID Connect",
  "form.type": "Type",
  "form.typeConfidential": "confidential (has a secret)",
  "form.typePublic": "public (no secret, PKCE required)",
  "form.firstParty": "First-party application (no consent screen)",
  "form.pkceOptional": "Allow sign-in without PKCE (only for an old application that cannot send it)",
  "form.grantTypes": "Grant types",
  "form.postLogoutRedirectUris": "Post-logout redirect URIs",
  "form.softwareIds": "Dynamic registration: software ids",
  "form.softwareIdsHint": "Mobile app installations of these software ids may register at /oauth/register (needs the idp_dyn_reg scope). Empty: off.",
  "form.lifetime.accessToken": "Access token lifetime, s",
  "form.lifetime.refreshToken": "Refresh token lifetime, s",
  "form.lifetime.idToken": "ID token lifetime, s",
  "form.lifetimeHint": "Empty: the server's default.",
  "form.listHint": "Separate with commas, spaces or new lines.",
  "form.cnHint": "One per line (a CN may contain spaces and commas).",
  "form.create": "Create",
  "form.save": "Save",
  "form.cancel": "Cancel",
  "form.saving": "Saving…",
  "form.fixErrors": "Check the highlighted fields.",
  "form.exists": "A client application with this id exists already.",

  "secret.createdTitle": "Client {id} created",
  "secret.rotatedTitle": "New secret for {id}",
  "secret.restTitle": "REST password for {id}",
  "secret.label": "Client secret",
  "secret.restLabel": "REST password",
  "secret.once": "Copy it now: it will not be shown again. Only a hash is stored.",
  "secret.copy": "Copy",
  "secret.copied": "Copied",
  "secret.copyFailed": "Copy failed: select the text and copy it by hand.",
  "secret.done": "I have saved it",

  "confirm.rotateTitle": "Rotate the secret of {id}?",
  "confirm.rotateBody": "The current secret stops working at once. Applications using it will fail until they get the new one.",
  "confirm.rotate": "Rotate",
  "confirm.setRestTitle": "Set a REST password for {id}?",
  "confirm.setRestBody": "A new password is generated for HTTP Basic (API v1/v2); a previous one stops working.",
  "confirm.set": "Generate",
  "confirm.removeRestTitle": "Remove the REST password of {id}?",
  "confirm.removeRestBody": "The client can no longer call API v1/v2 with HTTP Basic.",
  "confirm.remove": "Remove",
  "confirm.removed": "REST password removed.",

  "error.unauthorized": "Your session has ended. Sign in again.",
  "error.notFound": "This client application no longer exists.",
  "error.builtin": "This client belongs to the console and the account portal; the server manages it and it cannot be changed.",
  "error.ownAccount": "You cannot lock or delete the account you are signed in with.",
  "error.forbidden": "Your console role does not allow this. Ask an administrator.",
  "error.accountGone": "The account was deleted or changed meanwhile.",
  "error.privilegedAccount": "This account holds a console role: only an administrator can change it.",
  "error.lastAdmin": "The service must keep at least one administrator: give the role to someone else first.",
  "error.passkeyEnrolFirst": "Add a passkey to your own account first (in your account's passkeys page), then require them of console users.",
  "error.passkeyRequired": "Add a passkey to your account (in your account's passkeys page) before using the console.",
  "error.metadataInvalid": "The file is not usable FIDO metadata.",
  "role.admin": "Administrator",
  "role.user_manager": "User manager",
  "role.auditor": "Auditor",
  "error.generic": "Something went wrong. Try again.",
};

export type TMessageKey = keyof typeof en;

const ru: Record<TMessageKey, string> = {
  "app.title": "Консоль идентификации",
  "lang.toggle": "English",
  "lang.toggleHint": "Переключить консоль на английский",
  "header.signedInAs": "Вы вошли как",
  "header.signOut": "Выйти",
  "nav.users": "Пользователи",
  "nav.attributes": "Атрибуты",
  "nav.clients": "Приложения",
  "nav.outbox": "Исходящие",
  "nav.delivery": "Доставка",
  "nav.templates": "Шаблоны сообщений",
  "nav.events": "События",
  "nav.passwordPolicy": "Парольная политика",
  "nav.passkeyPolicy": "Политика ключей входа",
  "nav.signingKeys": "Ключи подписи",
  "nav.otpDevices": "OTP-устройства",
  "nav.providers": "Внешние провайдеры",
  "nav.security": "Безопасность",
  "nav.messages": "Письма и вид",
  "nav.branding": "Оформление",
  "nav.access": "Доступ",
  "nav.rights": "Права",
  "nav.rightDefinitions": "Определения прав",
  "nav.groups": "Группы",
  "nav.groupProfiles": "Профили групп",

  "signIn.title": "Вход в консоль",
  "signIn.subtitle": "Только для администраторов.",
  "signIn.submit": "Войти",
  "signIn.pending": "Переход…",
  "signIn.notAdmin": "Учётная запись, под которой выполнен вход, не принадлежит администратору. Войдите под учётной записью администратора.",
  "signIn.ended": "Сеанс консоли завершён: учётная запись заблокирована, лишилась роли администратора или из неё выполнен выход на всех устройствах. Войдите снова.",
  "signIn.failed": "Не удалось завершить вход. Повторите попытку.",

  "clients.title": "Клиентские приложения",
  "clients.search": "Поиск",
  "clients.searchPlaceholder": "Идентификатор или название",
  "clients.new": "Новый клиент",
  "clients.loadMore": "Показать ещё",
  "clients.loading": "Загрузка…",
  "clients.empty": "Клиентских приложений пока нет.",
  "clients.emptyHint": "Создайте приложение, чтобы оно могло получать токены.",
  "clients.noMatch": "Нет клиентских приложений по запросу «{q}».",
  "clients.loadFailed": "Не удалось загрузить клиентские приложения.",
  "clients.retry": "Повторить",
  "clients.col.id": "Идентификатор",
  "clients.col.name": "Название",
  "clients.col.scopes": "Системные scope",
  "clients.col.enabled": "Включён",
  "clients.col.rest": "REST-пароль",
  "clients.col.actions": "Действия",
  "clients.yes": "да",
  "clients.no": "нет",
  "clients.edit": "Изменить",
  "clients.rotate": "Сменить секрет",
  "clients.setRest": "Задать REST-пароль",
  "clients.removeRest": "Удалить REST-пароль",
  "clients.builtin": "встроенный",
  "clients.builtinHint": "Клиент входа этой консоли или личного кабинета. Сервер поддерживает его сам.",

  "form.createTitle": "Новое клиентское приложение",
  "form.editTitle": "Изменение {id}",
  "form.id": "Идентификатор клиента",
  "form.name": "Название",
  "form.scopes": "Системные scope",
  "form.userScopes": "Пользовательские scope",
  "form.redirectUris": "URI перенаправления",
  "form.tlsCNs": "CN сертификатов TLS",
  "form.enabled": "Включён",
  "form.protocol": "OAuth 2.0 и OpenID Connect",
  "form.type": "Тип",
  "form.typeConfidential": "конфиденциальный (с секретом)",
  "form.typePublic": "публичный (без секрета, нужен PKCE)",
  "form.firstParty": "Собственное приложение (без экрана согласия)",
  "form.pkceOptional": "Разрешить вход без PKCE (только для старого приложения, которое не умеет его отправлять)",
  "form.grantTypes": "Способы получения токенов",
  "form.postLogoutRedirectUris": "URI перенаправления после выхода",
  "form.softwareIds": "Динамическая регистрация: software id",
  "form.softwareIdsHint": "Установки мобильного приложения с этими software id могут регистрироваться через /oauth/register (нужен scope idp_dyn_reg). Пусто: выключено.",
  "form.lifetime.accessToken": "Срок access-токена, с",
  "form.lifetime.refreshToken": "Срок refresh-токена, с",
  "form.lifetime.idToken": "Срок ID-токена, с",
  "form.lifetimeHint": "Пусто: значение сервера по умолчанию.",
  "form.listHint": "Через запятую, пробел или с новой строки.",
  "form.cnHint": "По одному на строку (CN может содержать пробелы и запятые).",
  "form.create": "Создать",
  "form.save": "Сохранить",
  "form.cancel": "Отмена",
  "form.saving": "Сохранение…",
  "form.fixErrors": "Проверьте отмеченные поля.",
  "form.exists": "Клиентское приложение с таким идентификатором уже есть.",

  "secret.createdTitle": "Клиент {id} создан",
  "secret.rotatedTitle": "Новый секрет для {id}",
  "secret.restTitle": "REST-пароль для {id}",
  "secret.label": "Секрет клиента",
  "secret.restLabel": "REST-пароль",
  "secret.once": "Скопируйте сейчас: больше он показан не будет. Хранится только хеш.",
  "secret.copy": "Копировать",
  "secret.copied": "Скопировано",
  "secret.copyFailed": "Не удалось скопировать: выделите текст и скопируйте вручную.",
  "secret.done": "Я сохранил его",

  "confirm.rotateTitle": "Сменить секрет {id}?",
  "confirm.rotateBody": "Текущий секрет сразу перестанет работать. Приложения, которые его используют, не смогут получать токены до замены.",
  "confirm.rotate": "Сменить",
  "confirm.setRestTitle": "Задать REST-пароль для {id}?",
  "confirm.setRestBody": "Будет создан новый пароль для HTTP Basic (API v1/v2); прежний перестанет работать.",
  "confirm.set": "Создать",
  "confirm.removeRestTitle": "Удалить REST-пароль {id}?",
  "confirm.removeRestBody": "Клиент больше не сможет вызывать API v1/v2 через HTTP Basic.",
  "confirm.remove": "Удалить",
  "confirm.removed": "REST-пароль удалён.",

  "error.unauthorized": "Сеанс завершён. Войдите снова.",
  "error.notFound": "Этого клиентского приложения больше нет.",
  "error.builtin": "Этот клиент принадлежит консоли и личному кабинету; им управляет сервер, изменить его нельзя.",
  "error.ownAccount": "Нельзя заблокировать или удалить учётную запись, с которой вы вошли.",
  "error.forbidden": "Ваша роль в консоли этого не разрешает. Обратитесь к администратору.",
  "error.accountGone": "Учётную запись тем временем удалили или изменили.",
  "error.privilegedAccount": "У этой учётной записи есть роль в консоли: изменить её может только администратор.",
  "error.lastAdmin": "В сервисе должен оставаться хотя бы один администратор: сначала выдайте роль кому-нибудь ещё.",
  "error.passkeyEnrolFirst": "Сначала добавьте ключ входа в свой кабинет (страница ключей входа), затем требуйте ключи от пользователей консоли.",
  "error.passkeyRequired": "Добавьте ключ входа в свой кабинет (страница ключей входа), прежде чем работать в консоли.",
  "error.metadataInvalid": "Файл не подходит как метаданные FIDO.",
  "role.admin": "Администратор",
  "role.user_manager": "Менеджер пользователей",
  "role.auditor": "Аудитор",
  "error.generic": "Что-то пошло не так. Повторите попытку.",
};

const DICTIONARIES: Record<TLang, Record<TMessageKey, string>> = { en, ru };

export type TTranslate = (key: TMessageKey, params?: Record<string, string>) => string;

export { fillIn };

export function translator(lang: TLang): TTranslate {
  const dict = DICTIONARIES[lang];
  return (key, params) => fillIn(dict[key], params);
}

function isLang(value: string | undefined): value is TLang {
  return (LANGS as readonly string[]).includes(value ?? "");
}

/**
 * The toggle's cookie if set, else the first supported language of Accept-Language by q-value,
 * else English.
 */
export function pickLang(cookie: string | undefined, acceptLanguage: string | null | undefined): TLang {
  if (isLang(cookie)) return cookie;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? "1");
      return { lang: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((r) => r.lang).find(isLang) ?? "en";
}
