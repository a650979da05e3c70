import { fillIn } from "../../http/locale.ts";
import type { TLang } from "../../html/texts.ts";

// The sign-in pages' own words (sign-in, its steps, QR code, consent), kept with them; the words
// around every page and those of the error page are the page kit's (server/html/texts.ts).
const en = {
  "login.title": "Sign in",
  "login.to": "to continue to {client}",
  "login.identifier": "Username, e-mail or phone",
  "login.identifierHint": "A phone as 7XXXXXXXXXX",
  "login.password": "Password",
  "login.submit": "Sign in",
  "login.invalid_credentials": "Wrong username or password.",
  "login.missing_credentials": "Enter your username and password.",
  "login.locked_out": "Too many sign-in attempts. Try again in {wait}.",
  "login.account_locked": "This account is locked. Contact your administrator.",
  "login.noAccount": "No account yet?",
  "login.register": "Create an account",
  "login.forgot": "Forgot password?",
  "wait.seconds": "{n} s",
  "wait.minutes": "{n} min",
  "consent.title": "Allow access",
  "consent.asks": "{client} asks for access to your account:",
  "consent.signedInAs": "Signed in as {user}.",
  "consent.allow": "Allow",
  "consent.deny": "Deny",
  "consent.note": "You can revoke this access later in your account settings.",
  "scope.openid": "Confirm who you are",
  "scope.profile": "Your name",
  "scope.email": "Your e-mail address",
  "scope.phone": "Your phone number",
  "scope.offline_access": "Keep access while you are away, until you revoke it",
  "scope.idp_api_user": "Read your account data",
  "scope.idp_api_user_chg": "Change your account data",
  "scope.other": "Permission {scope}",
  "login.qr": "Use a QR code instead",
  "qr.title": "Sign in with a QR code",
  "qr.scan": "Scan this code with the app on a device where you are signed in, and confirm the sign-in there.",
  "qr.image": "QR code for signing in",
  "qr.codeText": "Code:",
  "qr.waiting": "Waiting for confirmation. The code expires in {wait}.",
  "qr.refused": "The sign-in was refused on the other device.",
  "qr.expired": "The QR code has expired.",
  "qr.again": "Show a new QR code",
  "qr.password": "Sign in with a password instead",
  "scope.idp_qr_auth": "Confirm sign-ins on other devices by QR code",
  "otp.title": "Two-step verification",
  "otp.code": "Code from your authenticator app",
  "otp.hint": "Open the app that shows codes for this account and type the current one.",
  "otp.submit": "Continue",
  "otp.wrong": "The code is wrong or already used. Type the current one.",
  "otp.missing": "Type the code.",
  "pwchange.title": "Set a new password",
  "pwchange.why": "Your administrator asks you to set a new password before you continue.",
  "pwchange.new": "New password",
  "pwchange.repeat": "New password again",
  "pwchange.submit": "Save and continue",
  "pwchange.mismatch": "The two passwords differ.",
  "login.password_locked": "Signing in with a password is turned off for this account. Use another way to sign in or contact your administrator.",
  "login.inactivity_locked": "This account was locked after a long time without signing in. Contact your administrator to unlock it.",
  "login.externalHeading": "Or sign in with another account",
  "login.with": "Sign in with {provider}",
  "login.linkNotice": "Your {provider} account {name} is not linked to an account here yet. Sign in with your password to link it, then you can sign in with {provider} next time.",
  "login.linkRegister": "Create an account linked to it",
  "login.otherWay": "Sign in another way",
};

export type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  "login.title": "Вход",
  "login.to": "для продолжения в «{client}»",
  "login.identifier": "Логин, e-mail или телефон",
  "login.identifierHint": "Телефон в виде 7XXXXXXXXXX",
  "login.password": "Пароль",
  "login.submit": "Войти",
  "login.invalid_credentials": "Неверный логин или пароль.",
  "login.missing_credentials": "Введите логин и пароль.",
  "login.locked_out": "Слишком много попыток входа. Повторите через {wait}.",
  "login.account_locked": "Учётная запись заблокирована. Обратитесь к администратору.",
  "login.noAccount": "Ещё нет учётной записи?",
  "login.register": "Зарегистрироваться",
  "login.forgot": "Забыли пароль?",
  "wait.seconds": "{n} с",
  "wait.minutes": "{n} мин",
  "consent.title": "Разрешение доступа",
  "consent.asks": "«{client}» запрашивает доступ к вашей учётной записи:",
  "consent.signedInAs": "Вы вошли как {user}.",
  "consent.allow": "Разрешить",
  "consent.deny": "Отказать",
  "consent.note": "Доступ можно отозвать позже в настройках учётной записи.",
  "scope.openid": "Подтверждение вашей личности",
  "scope.profile": "Фамилия, имя и отчество",
  "scope.email": "Адрес электронной почты",
  "scope.phone": "Номер телефона",
  "scope.offline_access": "Доступ, когда вас нет в сети, пока вы его не отзовёте",
  "scope.idp_api_user": "Чтение данных учётной записи",
  "scope.idp_api_user_chg": "Изменение данных учётной записи",
  "scope.other": "Разрешение {scope}",
  "login.qr": "Вход по QR-коду",
  "qr.title": "Вход по QR-коду",
  "qr.scan": "Отсканируйте код в приложении на устройстве, где вы уже вошли, и подтвердите вход там.",
  "qr.image": "QR-код для входа",
  "qr.codeText": "Код:",
  "qr.waiting": "Ожидаем подтверждения. Код действует ещё {wait}.",
  "qr.refused": "Вход отклонён на другом устройстве.",
  "qr.expired": "Срок действия QR-кода истёк.",
  "qr.again": "Показать новый QR-код",
  "qr.password": "Войти с паролем",
  "scope.idp_qr_auth": "Подтверждение входа на других устройствах по QR-коду",
  "otp.title": "Двухэтапная проверка",
  "otp.code": "Код из приложения-аутентификатора",
  "otp.hint": "Откройте приложение, которое показывает коды для этой учётной записи, и введите текущий.",
  "otp.submit": "Продолжить",
  "otp.wrong": "Код неверен или уже использован. Введите текущий.",
  "otp.missing": "Введите код.",
  "pwchange.title": "Новый пароль",
  "pwchange.why": "Администратор просит задать новый пароль, прежде чем продолжить.",
  "pwchange.new": "Новый пароль",
  "pwchange.repeat": "Новый пароль ещё раз",
  "pwchange.submit": "Сохранить и продолжить",
  "pwchange.mismatch": "Пароли не совпадают.",
  "login.password_locked": "Вход по паролю для этой учётной записи отключён. Войдите другим способом или обратитесь к администратору.",
  "login.inactivity_locked": "Учётная запись заблокирована после долгого отсутствия входов. Обратитесь к администратору, чтобы её разблокировать.",
  "login.externalHeading": "Или войдите с другой учётной записью",
  "login.with": "Войти через {provider}",
  "login.linkNotice": "Ваша учётная запись {provider} «{name}» ещё не связана с учётной записью здесь. Войдите с паролем, чтобы связать их, и в следующий раз сможете входить через {provider}.",
  "login.linkRegister": "Создать учётную запись, связанную с ней",
  "login.otherWay": "Войти другим способом",
};

const DICTIONARIES: Record<TLang, Record<TKey, string>> = { en, ru };

export type TText = (key: TKey, params?: Record<string, string>) => string;

export function textsFor(lang: TLang): TText {
  return (key, params) => fillIn(DICTIONARIES[lang][key], params);
}

export function scopeText(t: TText, scope: string): string {
  const key = `scope.${scope}` as TKey;
  return key in en ? t(key) : t("scope.other", { scope });
}

/** A wait as people say it: seconds below a minute, whole minutes (rounded up) above. */
export function waitText(t: TText, seconds: number): string {
  return seconds < 60 ? t("wait.seconds", { n: String(seconds) }) : t("wait.minutes", { n: String(Math.ceil(seconds / 60)) });
}
