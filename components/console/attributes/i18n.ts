"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The attribute catalog's and the attribute selections' own words.
const en = {
  "attrs.title": "Attributes",
  "attrs.intro": "The catalog of account attributes: what every account may hold, how values are checked, and which names API v1 uses.",
  "attrs.new": "New attribute",
  "attrs.loading": "Loading…",
  "attrs.loadFailed": "Could not load the attribute catalog.",
  "attrs.retry": "Retry",
  "attrs.col.name": "Name",
  "attrs.col.type": "Type",
  "attrs.col.flags": "Properties",
  "attrs.col.validators": "Validators",
  "attrs.col.aliases": "v1 aliases",
  "attrs.col.actions": "Actions",
  "attrs.builtin": "built-in",
  "attrs.edit": "Edit",
  "attrs.remove": "Remove",
  "attrs.removeTitle": "Remove the attribute {name}?",
  "attrs.removeBody": "Values already stored stay in the accounts but are no longer served or accepted.",
  "attrs.removed": "Attribute {name} removed.",
  "attrs.saved": "Attribute {name} saved.",
  "attrs.cancel": "Cancel",

  "attr.required": "required",
  "attr.unique": "unique",
  "attr.unmodifiable": "unmodifiable",
  "attr.searchable": "searchable",

  "form.createTitle": "New attribute",
  "form.editTitle": "Edit {name}",
  "form.name": "Name",
  "form.nameHint": "Lower-case letters, digits and _, starting with a letter.",
  "form.type": "Type",
  "form.builtinType": "Built-in: the type cannot change.",
  "form.required": "Required",
  "form.unique": "Unique: no two accounts may hold the same value",
  "form.unmodifiable": "Unmodifiable: set when the account is created, never changed",
  "form.searchable": "Searchable in the console's user search",
  "form.validators": "Validators",
  "form.minLength": "Minimum length",
  "form.maxLength": "Maximum length",
  "form.pattern": "Pattern (regular expression)",
  "form.format": "Format",
  "form.formatNone": "any",
  "form.aliases": "v1 aliases",
  "form.aliasesHint": "Separate with commas or spaces.",
  "form.save": "Save",
  "form.create": "Create",
  "form.saving": "Saving…",
  "form.fixErrors": "Check the highlighted fields.",
  "form.aliasTaken": "An alias already names another attribute ({detail}).",
  "form.builtin": "A built-in attribute keeps its type and cannot be removed.",

  "sel.title": "Attributes per scope",
  "sel.intro": "Which attributes this client may read or change under each scope. A new attribute joins “All attributes” at once, a chosen list only when ticked.",
  "sel.all": "All attributes",
  "sel.some": "Only the chosen attributes",
  "sel.chosen": "Attributes for {scope}",
  "sel.loading": "Loading the selections…",
  "sel.loadFailed": "Could not load the attribute selections.",
  "sel.failed": "The client was saved, but the attribute selection for {scope} was not.",
};

export type TAttributesKey = keyof typeof en;

const ru: Record<TAttributesKey, string> = {
  "attrs.title": "Атрибуты",
  "attrs.intro": "Каталог атрибутов учётных записей: что может хранить учётная запись, как проверяются значения и какие имена использует API v1.",
  "attrs.new": "Новый атрибут",
  "attrs.loading": "Загрузка…",
  "attrs.loadFailed": "Не удалось загрузить каталог атрибутов.",
  "attrs.retry": "Повторить",
  "attrs.col.name": "Имя",
  "attrs.col.type": "Тип",
  "attrs.col.flags": "Свойства",
  "attrs.col.validators": "Проверки",
  "attrs.col.aliases": "Псевдонимы v1",
  "attrs.col.actions": "Действия",
  "attrs.builtin": "встроенный",
  "attrs.edit": "Изменить",
  "attrs.remove": "Удалить",
  "attrs.removeTitle": "Удалить атрибут {name}?",
  "attrs.removeBody": "Уже сохранённые значения останутся в учётных записях, но больше не будут выдаваться и приниматься.",
  "attrs.removed": "Атрибут {name} удалён.",
  "attrs.saved": "Атрибут {name} сохранён.",
  "attrs.cancel": "Отмена",

  "attr.required": "обязательный",
  "attr.unique": "уникальный",
  "attr.unmodifiable": "неизменяемый",
  "attr.searchable": "для поиска",

  "form.createTitle": "Новый атрибут",
  "form.editTitle": "Изменение {name}",
  "form.name": "Имя",
  "form.nameHint": "Строчные латинские буквы, цифры и _, начинается с буквы.",
  "form.type": "Тип",
  "form.builtinType": "Встроенный: тип изменить нельзя.",
  "form.required": "Обязательный",
  "form.unique": "Уникальный: у двух учётных записей не может быть одинакового значения",
  "form.unmodifiable": "Неизменяемый: задаётся при создании учётной записи и не меняется",
  "form.searchable": "Участвует в поиске пользователей в консоли",
  "form.validators": "Проверки",
  "form.minLength": "Минимальная длина",
  "form.maxLength": "Максимальная длина",
  "form.pattern": "Шаблон (регулярное выражение)",
  "form.format": "Формат",
  "form.formatNone": "любой",
  "form.aliases": "Псевдонимы v1",
  "form.aliasesHint": "Через запятую или пробел.",
  "form.save": "Сохранить",
  "form.create": "Создать",
  "form.saving": "Сохранение…",
  "form.fixErrors": "Проверьте отмеченные поля.",
  "form.aliasTaken": "Псевдоним уже называет другой атрибут ({detail}).",
  "form.builtin": "Встроенный атрибут сохраняет свой тип, и удалить его нельзя.",

  "sel.title": "Атрибуты по scope",
  "sel.intro": "Какие атрибуты клиент может читать или менять в каждом scope. Новый атрибут сразу входит во «Все атрибуты», а в выбранный список — только когда его отметят.",
  "sel.all": "Все атрибуты",
  "sel.some": "Только выбранные атрибуты",
  "sel.chosen": "Атрибуты для {scope}",
  "sel.loading": "Загрузка выбора атрибутов…",
  "sel.loadFailed": "Не удалось загрузить выбор атрибутов.",
  "sel.failed": "Клиент сохранён, но выбор атрибутов для {scope} — нет.",
};

const DICTIONARIES: Record<TLang, Record<TAttributesKey, string>> = { en, ru };

export type TAttributesText = (key: TAttributesKey, params?: Record<string, string>) => string;

/** The attribute pages' words in the console's language. */
export function useAttributesText(): TAttributesText {
  return useAreaText(DICTIONARIES);
}
