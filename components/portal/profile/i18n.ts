"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The profile page's words: the form, the change of e-mail or phone by code, and field problems.
const en = {
  "profile.title": "Profile",
  "profile.intro": "Your personal data. A new e-mail address or phone number is saved once you enter the code sent to it.",
  "profile.loadFailed": "Could not load your profile.",
  "profile.details": "Personal data",
  "profile.save": "Save",
  "profile.saving": "Saving…",
  "profile.saved": "Saved.",
  "profile.noChanges": "Nothing has changed.",
  "profile.fixErrors": "Nothing was saved: check the fields marked below.",
  "profile.stale": "Your profile was changed elsewhere (perhaps in another window) after this page was opened, so nothing was saved. Reload to see the current data, then make your change again.",
  "profile.reload": "Reload",
  "profile.notEditable": "Cannot be changed here.",
  "profile.owned": "Kept in your organisation's directory: change it there.",
  "profile.listHint": "One per line.",
  "profile.notSet": "— not set —",
  "profile.yes": "Yes",
  "profile.no": "No",

  "attr.family_name": "Family name",
  "attr.given_name": "Given name",
  "attr.middle_name": "Middle name",
  "attr.birthdate": "Date of birth",
  "attr.email": "E-mail",
  "attr.phone_number": "Phone",

  "contacts.title": "E-mail and phone",
  "contact.confirmed": "confirmed",
  "contact.unconfirmed": "not confirmed",
  "contact.none": "not set",
  "contact.change": "Change {what}",
  "contact.add": "Add {what}",
  "contact.new.email": "New e-mail address",
  "contact.new.phone": "New phone number",
  "contact.hint.phone": "+7 and ten digits, for example +7 916 123-45-67.",
  "contact.send": "Send code",
  "contact.sending": "Sending…",
  "contact.cancel": "Cancel",

  "code.sent": "We sent a code to {to}. Enter it to confirm the new address; until then the current one stays.",
  "code.label": "Code from the message",
  "code.validUntil": "The code is valid until {time}.",
  "code.confirm": "Confirm",
  "code.confirming": "Checking…",
  "code.resend": "Send a new code",
  "code.resendIn": "A new code can be sent in {s} s.",
  "code.empty": "Enter the code from the message.",
  "code.wrong": "Wrong code. Attempts left: {n}.",
  "code.resent": "A new code was sent. The previous code no longer works.",
  "code.expired": "The code has expired.",
  "code.noAttempts": "Too many wrong codes: this code no longer works.",
  "code.gone": "This confirmation is no longer valid (perhaps a newer one was started).",
  "code.startAgain": "Start again",
  "code.confirmed": "{to} is confirmed and saved.",

  "err.minLength": "At least {n} characters.",
  "err.maxLength": "At most {n} characters.",
  "err.pattern": "Not in the expected format.",
  "err.format.uri": "Enter an address such as https://example.com.",
  "err.format.uuid": "Enter an identifier such as 123e4567-e89b-12d3-a456-426614174000.",
  "err.format.digits": "Digits only.",
  "err.number": "Enter a number.",
  "err.date": "Enter a real date.",
  "err.list": "At most {n} lines.",
  "err.phone": "Enter a Russian number: +7 and ten digits.",
  "err.email": "Enter an e-mail address such as name@example.com.",
  "err.required": "This is required and cannot be left empty.",
  "err.notEditable": "This cannot be changed here.",
  "err.taken": "This is already used by another account.",
};

export type TProfileKey = keyof typeof en;

const ru: Record<TProfileKey, string> = {
  "profile.title": "Профиль",
  "profile.intro": "Ваши личные данные. Новый адрес почты или номер телефона сохраняется, когда вы введёте присланный на него код.",
  "profile.loadFailed": "Не удалось загрузить профиль.",
  "profile.details": "Личные данные",
  "profile.save": "Сохранить",
  "profile.saving": "Сохранение…",
  "profile.saved": "Сохранено.",
  "profile.noChanges": "Ничего не изменилось.",
  "profile.fixErrors": "Ничего не сохранено: проверьте отмеченные поля.",
  "profile.stale": "Профиль изменили в другом месте (возможно, в другом окне) после того, как открылась эта страница, поэтому ничего не сохранено. Обновите данные и внесите изменение снова.",
  "profile.reload": "Обновить",
  "profile.notEditable": "Здесь не изменяется.",
  "profile.owned": "Хранится в каталоге вашей организации: изменяется там.",
  "profile.listHint": "По одному на строку.",
  "profile.notSet": "— не указано —",
  "profile.yes": "Да",
  "profile.no": "Нет",

  "attr.family_name": "Фамилия",
  "attr.given_name": "Имя",
  "attr.middle_name": "Отчество",
  "attr.birthdate": "Дата рождения",
  "attr.email": "Электронная почта",
  "attr.phone_number": "Телефон",

  "contacts.title": "Почта и телефон",
  "contact.confirmed": "подтверждён",
  "contact.unconfirmed": "не подтверждён",
  "contact.none": "не указан",
  "contact.change": "Изменить: {what}",
  "contact.add": "Добавить: {what}",
  "contact.new.email": "Новый адрес почты",
  "contact.new.phone": "Новый номер телефона",
  "contact.hint.phone": "+7 и десять цифр, например +7 916 123-45-67.",
  "contact.send": "Отправить код",
  "contact.sending": "Отправка…",
  "contact.cancel": "Отмена",

  "code.sent": "Мы отправили код на {to}. Введите его, чтобы подтвердить новый адрес; до тех пор действует прежний.",
  "code.label": "Код из сообщения",
  "code.validUntil": "Код действует до {time}.",
  "code.confirm": "Подтвердить",
  "code.confirming": "Проверка…",
  "code.resend": "Отправить новый код",
  "code.resendIn": "Новый код можно запросить через {s} с.",
  "code.empty": "Введите код из сообщения.",
  "code.wrong": "Неверный код. Осталось попыток: {n}.",
  "code.resent": "Новый код отправлен. Прежний код больше не действует.",
  "code.expired": "Срок действия кода истёк.",
  "code.noAttempts": "Слишком много неверных попыток: этот код больше не действует.",
  "code.gone": "Это подтверждение больше не действует (возможно, начато новое).",
  "code.startAgain": "Начать заново",
  "code.confirmed": "{to}: подтверждено и сохранено.",

  "err.minLength": "Не короче {n} символов.",
  "err.maxLength": "Не длиннее {n} символов.",
  "err.pattern": "Не соответствует нужному формату.",
  "err.format.uri": "Введите адрес вида https://example.com.",
  "err.format.uuid": "Введите идентификатор вида 123e4567-e89b-12d3-a456-426614174000.",
  "err.format.digits": "Только цифры.",
  "err.number": "Введите число.",
  "err.date": "Введите существующую дату.",
  "err.list": "Не больше {n} строк.",
  "err.phone": "Введите российский номер: +7 и десять цифр.",
  "err.email": "Введите адрес почты вида name@example.com.",
  "err.required": "Обязательное поле, его нельзя оставить пустым.",
  "err.notEditable": "Здесь это изменить нельзя.",
  "err.taken": "Уже используется другой учётной записью.",
};

export const PROFILE_TEXT: Record<TLang, Record<TProfileKey, string>> = { en, ru };

export type TProfileText = (key: TProfileKey, params?: Record<string, string>) => string;

export function useProfileText(): TProfileText {
  return useAreaText(PROFILE_TEXT);
}

/** An attribute's name in words; one the portal has no words for is shown by its name. */
export function attributeLabel(u: TProfileText, name: string): string {
  const key = `attr.${name}`;
  return key in en ? u(key as TProfileKey) : name;
}
