import type { TInputItem } from "../errors/app-error.ts";
import type { TLocale } from "../http/locale.ts";

// Registration answers `errMsg` in the user's language: Russian by default, English on request.
// The services' texts are English; these are the Russian forms of the ones registration can meet.
const RU: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^unknown attribute$/, () => "Неизвестный атрибут"],
  [/^this attribute is not available to the client$/, () => "Атрибут недоступен приложению"],
  [/^a required attribute is missing$/, () => "Обязательный атрибут не заполнен"],
  [/^must be a phone number 7XXXXXXXXXX$/, () => "Номер телефона должен быть в формате 7XXXXXXXXXX"],
  [/^must be an e-mail address$/, () => "Неверный адрес электронной почты"],
  [/^must be a string$/, () => "Значение должно быть строкой"],
  [/^must be a boolean$/, () => "Значение должно быть логическим"],
  [/^must be a number$/, () => "Значение должно быть числом"],
  [/^must be a date YYYY-MM-DD$/, () => "Дата должна быть в формате ГГГГ-ММ-ДД"],
  [/^must be at least (\d+) characters$/, (m) => `Значение должно содержать не менее ${m[1]} символов`],
  [/^must be at most (\d+) characters$/, (m) => `Значение должно содержать не более ${m[1]} символов`],
  [/^does not match the pattern/, () => "Значение не соответствует формату"],
  [/^must be an object/, () => "Значение должно быть объектом {value, verified}"],
  [/^unknown field/, () => "Неизвестное поле"],
  [/^this (\S+) is already used by another account$/, () => "Значение уже используется другой учётной записью"],
];

export function localizeItem(item: TInputItem, locale: TLocale): TInputItem {
  if (locale === "en") return item;
  for (const [re, text] of RU) {
    const m = re.exec(item.desc);
    if (m) return { ...item, desc: text(m) };
  }
  return item;
}

const TEXTS = {
  unknown_dyn_client: { ru: (id: string) => `Неизвестный динамический клиент ${id}`, en: (id: string) => `unknown dynamic client ${id}` },
  bound_dyn_client: {
    ru: (id: string) => `Динамический клиент ${id} уже привязан к учётной записи`,
    en: (id: string) => `dynamic client ${id} is already bound to an account`,
  },
  not_found: { ru: () => "Регистрация не найдена или истекла", en: () => "registration not found or expired" },
  resend_too_soon: { ru: (s: string) => `Новый код можно запросить через ${s} с`, en: (s: string) => `a new code can be requested in ${s} s` },
  no_such_contact: { ru: () => "Этот контакт не ожидает подтверждения", en: () => "this contact does not await confirmation" },
} as const;

export function registrationText(key: keyof typeof TEXTS, locale: TLocale, arg = ""): string {
  return TEXTS[key][locale](arg);
}
