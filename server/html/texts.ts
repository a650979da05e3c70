import { ERROR_CODES, type TErrorCode } from "../errors/codes.ts";
import { fillIn, localeOf, type TLocale } from "../http/locale.ts";
import { queryParam, type TIncoming } from "../http/exchange.ts";

// The words of the page kit itself: the document around every page (the product's name, the
// language switch) and the error page's words for the codes a browser page can end in. The pages'
// own words live with them (sign-in/pages/i18n.ts, oauth/logout/logout-view.ts, the external-account
// pages of federation/external-auth/).

export type TLang = TLocale;

const en = {
  "page.product": "Identity",
  "page.terms": "Terms of use",
  "page.privacy": "Privacy policy",
  "lang.switch": "Русский",
  "error.title": "Sign-in is not possible",
  "error.back": "Go back to the application and start again.",
  "error.authorize.invalid_request": "The application sent an invalid sign-in request.",
  "error.authorize.unknown_client": "The application is not registered here or is disabled.",
  "error.authorize.redirect_uri_mismatch": "The application's return address is not registered, so you are not sent back to it.",
  "error.login.flow_not_found": "This sign-in request is unknown or already finished.",
  "error.login.flow_expired": "This sign-in request has expired.",
  "error.login.csrf_failed": "The form does not belong to this browser (it was opened elsewhere, or cookies are blocked).",
  "error.login.passkey_required": "The application asks you to sign in with a passkey. Go back to it and sign in again with your passkey.",
  "error.logout.invalid_hint": "The sign-out request of the application is not valid.",
  "error.logout.redirect_uri_mismatch": "The application's return address after sign-out is not registered.",
  "error.signupTitle": "Sign-up is not possible",
  "error.signup.disabled": "Creating an account yourself is turned off on this service. Ask its administrator for an account; they can also turn sign-up on (IDP_SELF_SIGNUP=on).",
  "error.signup.flow_not_found": "This sign-up is unknown or already finished.",
  "error.recovery.disabled": "Resetting a password yourself is turned off on this service. Ask its administrator to reset it; they can also turn recovery on (IDP_RECOVERY).",
  "error.signup.flow_expired": "This sign-up has expired. Start again; if every contact was confirmed, your account exists and you can sign in.",
  "error.bad_request": "The request is not valid.",
  "error.other": "Something went wrong. Quote this id when reporting it: {requestId}.",
  "error.federation.provider_not_found": "This way of signing in is not offered here.",
  "error.federation.provider_unavailable": "The external provider cannot be reached now. Try again later, or sign in another way.",
  "error.federation.provider_refused": "The external provider did not confirm your account. Try again, or sign in another way.",
  "error.federation.sid_bound": "This external account is linked to another account already.",
  "error.saml.unknown_sp": "The application is not registered here or is switched off.",
  "error.saml.request_invalid": "The application sent a sign-in request that cannot be answered (it may be old, or meant for another service).",
  "error.saml.request_replayed": "This sign-in request was answered already. Go back to the application and start again.",
  "error.saml.acs_not_registered": "The application asked for its answer at an address it did not register, so it is not sent there.",
  "error.saml.signature_invalid": "The application's sign-in request is not signed as it must be.",
  "error.saml.xml_refused": "The application sent a sign-in request that is not accepted.",
  "saml.continue": "Continue",
  "saml.sending": "Returning you to {app}…",
  "saml.noscript": "Press Continue to return to the application.",
};

type TKitKey = keyof typeof en;

const ru: Record<TKitKey, string> = {
  "page.product": "Идентификация",
  "page.terms": "Условия использования",
  "page.privacy": "Политика конфиденциальности",
  "lang.switch": "English",
  "error.title": "Вход невозможен",
  "error.back": "Вернитесь в приложение и начните вход заново.",
  "error.authorize.invalid_request": "Приложение прислало некорректный запрос на вход.",
  "error.authorize.unknown_client": "Приложение здесь не зарегистрировано или отключено.",
  "error.authorize.redirect_uri_mismatch": "Адрес возврата приложения не зарегистрирован, поэтому вы не будете на него перенаправлены.",
  "error.login.flow_not_found": "Запрос на вход не найден или уже завершён.",
  "error.login.flow_expired": "Время запроса на вход истекло.",
  "error.login.csrf_failed": "Форма не относится к этому браузеру (открыта в другом или cookie заблокированы).",
  "error.login.passkey_required": "Приложение просит войти по ключу входа. Вернитесь в него и войдите снова с ключом входа.",
  "error.logout.invalid_hint": "Запрос приложения на выход некорректен.",
  "error.logout.redirect_uri_mismatch": "Адрес возврата приложения после выхода не зарегистрирован.",
  "error.signupTitle": "Регистрация невозможна",
  "error.signup.disabled": "Самостоятельная регистрация в этом сервисе выключена. Попросите учётную запись у администратора сервиса; он же может включить регистрацию (IDP_SELF_SIGNUP=on).",
  "error.signup.flow_not_found": "Регистрация не найдена или уже завершена.",
  "error.recovery.disabled": "Самостоятельное восстановление пароля в этом сервисе выключено. Попросите администратора сбросить пароль; он же может включить восстановление (IDP_RECOVERY).",
  "error.signup.flow_expired": "Время регистрации истекло. Начните заново; если все контакты были подтверждены, учётная запись создана и вы можете войти.",
  "error.bad_request": "Запрос некорректен.",
  "error.other": "Что-то пошло не так. Сообщите этот номер: {requestId}.",
  "error.federation.provider_not_found": "Такой способ входа здесь не предлагается.",
  "error.federation.provider_unavailable": "Внешний провайдер сейчас недоступен. Повторите попытку позже или войдите другим способом.",
  "error.federation.provider_refused": "Внешний провайдер не подтвердил вашу учётную запись. Повторите попытку или войдите другим способом.",
  "error.federation.sid_bound": "Эта внешняя учётная запись уже связана с другой учётной записью.",
  "error.saml.unknown_sp": "Приложение здесь не зарегистрировано или отключено.",
  "error.saml.request_invalid": "Приложение прислало запрос на вход, на который нельзя ответить (он устарел или адресован другому сервису).",
  "error.saml.request_replayed": "На этот запрос на вход уже был дан ответ. Вернитесь в приложение и начните вход заново.",
  "error.saml.acs_not_registered": "Приложение попросило прислать ответ на незарегистрированный адрес, поэтому ответ туда не отправлен.",
  "error.saml.signature_invalid": "Запрос приложения на вход не подписан так, как требуется.",
  "error.saml.xml_refused": "Приложение прислало недопустимый запрос на вход.",
  "saml.continue": "Продолжить",
  "saml.sending": "Возвращаем вас в {app}…",
  "saml.noscript": "Нажмите «Продолжить», чтобы вернуться в приложение.",
};

const KIT: Record<TLang, Record<TKitKey, string>> = { en, ru };

/** One of the kit's own words, in `lang`. */
export function kitText(lang: TLang, key: TKitKey, params?: Record<string, string>): string {
  return fillIn(KIT[lang][key], params);
}

/** The error page's words for `code`, when it has words of its own. */
export function errorMessage(lang: TLang, code: string): string | undefined {
  const key = `error.${code}`;
  return key in en ? KIT[lang][key as TKitKey] : undefined;
}

/** The page's words for an error code, or the generic text of its kind. */
export function errorText(lang: TLang, code: TErrorCode, requestId: string): string {
  return errorMessage(lang, code) ?? (ERROR_CODES[code].status < 500 ? kitText(lang, "error.bad_request") : kitText(lang, "error.other", { requestId }));
}

/**
 * The page's language: the switch link's `lang`, then the application's ui_locales (OIDC Core
 * §3.1.2.1, in order of preference), then Accept-Language; Russian when nothing says otherwise.
 */
export function pickLang(req: Pick<TIncoming, "headers" | "search">, uiLocales?: string): TLang {
  const chosen = queryParam(req, "lang");
  if (chosen === "ru" || chosen === "en") return chosen;
  for (const tag of (uiLocales ?? "").split(" ")) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "ru" || base === "en") return base;
  }
  return localeOf(req);
}
