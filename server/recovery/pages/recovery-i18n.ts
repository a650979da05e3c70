import { fillIn } from "../../http/locale.ts";
import type { TLang } from "../../html/texts.ts";

// The recovery pages' own words ("Forgot password?" on the sign-in page leads here).
const en = {
  "recover.title": "Reset your password",
  "recover.lead.both": "Enter the e-mail address or phone number confirmed for your account, and we will send a code to it.",
  "recover.lead.email": "Enter the e-mail address confirmed for your account, and we will send a code to it.",
  "recover.lead.phone": "Enter the phone number confirmed for your account, and we will send a code to it by SMS.",
  "recover.address.both": "E-mail or phone",
  "recover.address.email": "E-mail",
  "recover.address.phone": "Phone",
  "recover.addressHint": "A phone as 7XXXXXXXXXX",
  "recover.submit": "Send code",
  "recover.back": "Back to sign in",
  "recover.unreadable.both": "Enter an e-mail address, or a phone number as 7XXXXXXXXXX.",
  "recover.unreadable.email": "Enter an e-mail address.",
  "recover.unreadable.phone": "Enter a phone number as 7XXXXXXXXXX.",
  "recover.off.email": "Codes are not sent by e-mail here. Enter your phone number.",
  "recover.off.phone": "Codes are not sent by SMS here. Enter your e-mail address.",
  "recover.throttled": "Too many codes were asked for. Try again in {wait}.",
  "code.title": "Enter the code",
  "code.sent.email": "If an account has {to} as its confirmed e-mail address, we sent a code to it. The code is valid for {minutes} min.",
  "code.sent.phone": "If an account has {to} as its confirmed phone number, we sent a code to it by SMS. The code is valid for {minutes} min.",
  "code.label": "Code",
  "code.submit": "Continue",
  "code.missing": "Type the code.",
  "code.wrong": "The code is wrong. Tries left: {n}.",
  "code.spent": "This code can no longer be used. Ask for a new one.",
  "code.again": "Send a new code",
  "newpw.title": "Set a new password",
  "newpw.why": "Choose a new password. Once it is saved, every other sign-in to your account ends, and we let you know at your confirmed contacts.",
  "newpw.submit": "Save and sign in",
  "link.title": "Set a new password",
  "link.lead": "Your administrator sent you this link to set a new password. Once it is saved, every sign-in to your account ends and you sign in again with the new password.",
  "link.submit": "Save the password",
  "link.spent": "This link has expired or was used already. Ask your administrator for a new one, or use \u201cForgot password?\u201d on the sign-in page.",
  "link.done": "Your new password is saved. Sign in with it.",
  "link.signIn": "Go to your account",
};

export type TRecoveryKey = keyof typeof en;

const ru: Record<TRecoveryKey, string> = {
  "recover.title": "Восстановление пароля",
  "recover.lead.both": "Введите адрес электронной почты или номер телефона, подтверждённый в вашей учётной записи, и мы отправим на него код.",
  "recover.lead.email": "Введите адрес электронной почты, подтверждённый в вашей учётной записи, и мы отправим на него код.",
  "recover.lead.phone": "Введите номер телефона, подтверждённый в вашей учётной записи, и мы отправим на него код в SMS.",
  "recover.address.both": "E-mail или телефон",
  "recover.address.email": "E-mail",
  "recover.address.phone": "Телефон",
  "recover.addressHint": "Телефон в виде 7XXXXXXXXXX",
  "recover.submit": "Отправить код",
  "recover.back": "Вернуться ко входу",
  "recover.unreadable.both": "Введите адрес электронной почты или номер телефона в виде 7XXXXXXXXXX.",
  "recover.unreadable.email": "Введите адрес электронной почты.",
  "recover.unreadable.phone": "Введите номер телефона в виде 7XXXXXXXXXX.",
  "recover.off.email": "Коды по электронной почте здесь не отправляются. Введите номер телефона.",
  "recover.off.phone": "Коды в SMS здесь не отправляются. Введите адрес электронной почты.",
  "recover.throttled": "Слишком много запросов кода. Повторите через {wait}.",
  "code.title": "Введите код",
  "code.sent.email": "Если у учётной записи подтверждён адрес {to}, мы отправили на него код. Код действует {minutes} мин.",
  "code.sent.phone": "Если у учётной записи подтверждён номер {to}, мы отправили на него код в SMS. Код действует {minutes} мин.",
  "code.label": "Код",
  "code.submit": "Продолжить",
  "code.missing": "Введите код.",
  "code.wrong": "Код неверен. Осталось попыток: {n}.",
  "code.spent": "Этот код больше нельзя использовать. Запросите новый.",
  "code.again": "Отправить новый код",
  "newpw.title": "Новый пароль",
  "newpw.why": "Придумайте новый пароль. Как только он будет сохранён, все остальные входы в вашу учётную запись завершатся, а мы сообщим об этом на ваши подтверждённые контакты.",
  "newpw.submit": "Сохранить и войти",
  "link.title": "Новый пароль",
  "link.lead": "Администратор отправил вам эту ссылку, чтобы задать новый пароль. Когда он будет сохранён, все входы в вашу учётную запись завершатся, и вы войдёте заново с новым паролем.",
  "link.submit": "Сохранить пароль",
  "link.spent": "Срок действия ссылки истёк, или она уже использована. Попросите администратора отправить новую или воспользуйтесь ссылкой \u00abЗабыли пароль?\u00bb на странице входа.",
  "link.done": "Новый пароль сохранён. Войдите с ним.",
  "link.signIn": "Перейти в личный кабинет",
};

const DICTIONARIES: Record<TLang, Record<TRecoveryKey, string>> = { en, ru };

export type TRecoveryText = (key: TRecoveryKey, params?: Record<string, string>) => string;

export function recoveryTextsFor(lang: TLang): TRecoveryText {
  return (key, params) => fillIn(DICTIONARIES[lang][key], params);
}
