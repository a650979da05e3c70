import { fillIn } from "../../http/locale.ts";
import type { TLang } from "../../html/texts.ts";

// The sign-up pages' own words, apart from the sign-in pages' dictionary they share the layout with.
const en = {
  "signup.title": "Create an account",
  "signup.required": "All fields are required unless marked optional.",
  "signup.optional": "optional",
  "signup.field.family_name": "Last name",
  "signup.field.given_name": "First name",
  "signup.field.middle_name": "Middle name",
  "signup.field.email": "E-mail",
  "signup.field.phone_number": "Mobile phone",
  "signup.contacts": "How we reach you",
  "signup.contactsHint": "An e-mail address, a mobile phone or both. We send a code to each to confirm it is yours.",
  "signup.phoneHint": "As 7XXXXXXXXXX",
  "signup.password": "Password",
  "signup.passwordHint": "At least {min} characters.",
  "signup.passwordRepeat": "Repeat the password",
  "signup.submit": "Create account",
  "signup.haveAccount": "Already have an account?",
  "signup.linkNotice": "The new account will be linked to your {provider} account {name}: you can sign in with either.",
  "signup.signIn": "Sign in",
  "signup.fix": "Please correct the following:",
  "signup.contact_required": "Enter an e-mail address or a mobile phone.",
  "signup.password_required": "Enter a password.",
  "signup.password_mismatch": "The passwords do not match.",
  "signup.taken.email": "An account with this e-mail address already exists. Sign in with it, or use another address.",
  "signup.taken.phone_number": "An account with this phone number already exists. Sign in with it, or use another number.",
  "signup.taken.other": "This value is already used by another account.",
  "signup.throttled": "Too many sign-ups from your network. Try again in {wait}.",
  "codes.title": "Confirm your contacts",
  "codes.intro": "Enter the codes we sent. Your account is created as soon as every contact is confirmed.",
  "codes.email": "Code from the e-mail to {to}",
  "codes.phone": "Code from the SMS to {to}",
  "codes.valid": "The code is valid for {wait}.",
  "codes.wrong": "Wrong code. Attempts left: {n}.",
  "codes.expired": "The code has expired. Ask for a new one.",
  "codes.noAttempts": "Wrong code, and no attempts are left. Ask for a new code.",
  "codes.confirm": "Confirm",
  "codes.resend": "Send a new code",
  "codes.resendIn": "You can ask for a new code in {wait}.",
  "codes.resent": "A new code has been sent to {to}.",
  "codes.confirmedEmail": "The address {to} is confirmed.",
  "codes.confirmedPhone": "The number {to} is confirmed.",
  "codes.missing": "Enter the code.",
  "codes.tooSoon": "A new code can be requested in {wait}.",
  "codes.taken": "An account with this e-mail address or phone number was created in the meantime. Sign in with it instead.",
  "done.title": "Your account is ready",
  "done.signedIn": "Your account has been created, and you are signed in.",
  "done.back": "Go back to the application to continue.",
};

type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  "signup.title": "Регистрация",
  "signup.required": "Все поля обязательны, кроме помеченных «необязательно».",
  "signup.optional": "необязательно",
  "signup.field.family_name": "Фамилия",
  "signup.field.given_name": "Имя",
  "signup.field.middle_name": "Отчество",
  "signup.field.email": "Электронная почта",
  "signup.field.phone_number": "Мобильный телефон",
  "signup.contacts": "Как с вами связаться",
  "signup.contactsHint": "Адрес электронной почты, мобильный телефон или оба. На каждый мы отправим код, чтобы убедиться, что он ваш.",
  "signup.phoneHint": "В виде 7XXXXXXXXXX",
  "signup.password": "Пароль",
  "signup.passwordHint": "Не менее {min} символов.",
  "signup.passwordRepeat": "Пароль ещё раз",
  "signup.submit": "Зарегистрироваться",
  "signup.haveAccount": "Уже есть учётная запись?",
  "signup.linkNotice": "Новая учётная запись будет связана с вашей учётной записью {provider} «{name}»: входить можно будет любым способом.",
  "signup.signIn": "Войти",
  "signup.fix": "Исправьте, пожалуйста:",
  "signup.contact_required": "Укажите адрес электронной почты или мобильный телефон.",
  "signup.password_required": "Введите пароль.",
  "signup.password_mismatch": "Пароли не совпадают.",
  "signup.taken.email": "Учётная запись с этим адресом почты уже есть. Войдите с ним или укажите другой адрес.",
  "signup.taken.phone_number": "Учётная запись с этим номером телефона уже есть. Войдите с ним или укажите другой номер.",
  "signup.taken.other": "Это значение уже использует другая учётная запись.",
  "signup.throttled": "Слишком много регистраций из вашей сети. Повторите через {wait}.",
  "codes.title": "Подтверждение контактов",
  "codes.intro": "Введите присланные коды. Учётная запись будет создана, как только все контакты будут подтверждены.",
  "codes.email": "Код из письма на {to}",
  "codes.phone": "Код из SMS на {to}",
  "codes.valid": "Код действует {wait}.",
  "codes.wrong": "Неверный код. Осталось попыток: {n}.",
  "codes.expired": "Срок действия кода истёк. Запросите новый.",
  "codes.noAttempts": "Неверный код, попыток больше нет. Запросите новый код.",
  "codes.confirm": "Подтвердить",
  "codes.resend": "Отправить новый код",
  "codes.resendIn": "Новый код можно запросить через {wait}.",
  "codes.resent": "Новый код отправлен на {to}.",
  "codes.confirmedEmail": "Адрес {to} подтверждён.",
  "codes.confirmedPhone": "Номер {to} подтверждён.",
  "codes.missing": "Введите код.",
  "codes.tooSoon": "Новый код можно запросить через {wait}.",
  "codes.taken": "Пока вы регистрировались, учётную запись с этим адресом почты или телефоном уже создали. Войдите с ней.",
  "done.title": "Учётная запись создана",
  "done.signedIn": "Ваша учётная запись создана, и вы вошли в неё.",
  "done.back": "Вернитесь в приложение, чтобы продолжить.",
};

const DICTIONARIES: Record<TLang, Record<TKey, string>> = { en, ru };

export type TSignUpText = (key: TKey, params?: Record<string, string>) => string;

export function signUpTextsFor(lang: TLang): TSignUpText {
  return (key, params) => fillIn(DICTIONARIES[lang][key], params);
}

/** The label of an attribute input: its own words for the person's names and contacts, else its name. */
export function fieldLabel(st: TSignUpText, name: string): string {
  const key = `signup.field.${name}` as TKey;
  return key in en ? st(key) : name;
}
