"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The password policy page's own words.
const en = {
  "policy.title": "Password policy",
  "policy.intro":
    "Applies to every new password: registration, sign-up, the console and POST …/pswd. Lengths count characters as people see them; passwords are never truncated. The default follows NIST SP 800-63B rev. 4: at least 15 characters, or 8 for an account whose second factor is on, common passwords refused, the last 5 passwords refused, no composition rule.",
  "policy.loading": "Loading…",
  "policy.length": "Length",
  "policy.minLength": "Minimum length without a second factor",
  "policy.minLengthWithSecondFactor": "Minimum length with the second factor on",
  "policy.maxLength": "Maximum length",
  "policy.reuse": "Reuse and age",
  "policy.historySize": "Previous passwords refused",
  "policy.minNewChars": "New characters required (user's own change)",
  "policy.minAgeSec": "Minimum age, seconds (user's own change)",
  "policy.dictionaries": "Dictionaries",
  "policy.dictionary": "Refuse the 20,000 most common passwords",
  "policy.stopWords": "Stop words, one per line",
  "policy.stopWordsHint": "A password containing one of them (any case) is refused: the company's or product's name, for example.",
  "policy.groups": "Composition",
  "policy.groupsHint": "Character groups a password needs. None by default: NIST advises against composition rules.",
  "policy.minGroups": "Groups to satisfy (empty: all)",
  "policy.groupDesc": "Shown to the user as",
  "policy.groupKind": "Characters",
  "policy.groupChars": "These characters",
  "policy.groupMin": "At least",
  "policy.kind.lower": "lower-case letters",
  "policy.kind.upper": "capital letters",
  "policy.kind.letter": "letters",
  "policy.kind.digit": "digits",
  "policy.kind.symbol": "other characters",
  "policy.kind.chars": "a list of characters",
  "policy.addGroup": "Add group",
  "policy.removeGroup": "Remove",
  "policy.noGroups": "No composition rule.",
  "policy.save": "Save policy",
  "policy.saving": "Saving…",
  "policy.saved": "The policy is saved and applies on every instance.",
  "policy.reset": "Back to the default",
};
export type TPolicyKey = keyof typeof en;

const ru: Record<TPolicyKey, string> = {
  "policy.title": "Парольная политика",
  "policy.intro":
    "Действует для каждого нового пароля: регистрация, самостоятельная регистрация, консоль и POST …/pswd. Длина считается в видимых символах; пароль никогда не обрезается. По умолчанию — как в NIST SP 800-63B rev. 4: не менее 15 символов, или 8 при включённом втором факторе, распространённые пароли и 5 последних паролей запрещены, правил состава нет.",
  "policy.loading": "Загрузка…",
  "policy.length": "Длина",
  "policy.minLength": "Минимальная длина без второго фактора",
  "policy.minLengthWithSecondFactor": "Минимальная длина при включённом втором факторе",
  "policy.maxLength": "Максимальная длина",
  "policy.reuse": "Повторы и возраст",
  "policy.historySize": "Сколько прежних паролей запрещено",
  "policy.minNewChars": "Новых символов не меньше (смена самим пользователем)",
  "policy.minAgeSec": "Минимальный возраст пароля, секунд (смена самим пользователем)",
  "policy.dictionaries": "Словари",
  "policy.dictionary": "Запрещать 20 000 самых распространённых паролей",
  "policy.stopWords": "Стоп-слова, по одному в строке",
  "policy.stopWordsHint": "Пароль, содержащий одно из них (в любом регистре), отклоняется: например, название компании или продукта.",
  "policy.groups": "Состав",
  "policy.groupsHint": "Группы символов, которые должны быть в пароле. По умолчанию нет: NIST не советует такие правила.",
  "policy.minGroups": "Сколько групп выполнить (пусто — все)",
  "policy.groupDesc": "Название для пользователя",
  "policy.groupKind": "Символы",
  "policy.groupChars": "Эти символы",
  "policy.groupMin": "Не меньше",
  "policy.kind.lower": "строчные буквы",
  "policy.kind.upper": "заглавные буквы",
  "policy.kind.letter": "буквы",
  "policy.kind.digit": "цифры",
  "policy.kind.symbol": "прочие символы",
  "policy.kind.chars": "список символов",
  "policy.addGroup": "Добавить группу",
  "policy.removeGroup": "Убрать",
  "policy.noGroups": "Правил состава нет.",
  "policy.save": "Сохранить политику",
  "policy.saving": "Сохранение…",
  "policy.saved": "Политика сохранена и действует на всех экземплярах.",
  "policy.reset": "Вернуть по умолчанию",
};

const DICTIONARIES: Record<TLang, Record<TPolicyKey, string>> = { en, ru };

export function usePolicyText(): (key: TPolicyKey, params?: Record<string, string>) => string {
  return useAreaText(DICTIONARIES);
}
