"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The portal's security question page.
const en = {
  title: "Security question",
  intro: "A question only you can answer, for when your identity has to be confirmed. The answer is kept only in a form that cannot be read back; capital letters and extra spaces do not matter.",
  loadFailed: "Could not load your security question.",
  current: "Your question",
  none: "No security question is set.",
  question: "Question",
  answer: "Answer",
  answerHint: "Capital letters, ё/е and extra spaces do not matter.",
  save: "Save",
  saving: "Saving…",
  change: "Change question and answer",
  saved: "Your security question is saved.",
  remove: "Delete question",
  removeTitle: "Delete your security question?",
  removeBody: "Applications that confirm your identity by it will no longer be able to.",
  removed: "Your security question is deleted.",
  cancel: "Cancel",
  required: "Fill this in.",
  tooLong: "At most 500 characters.",
};
type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  title: "Контрольный вопрос",
  intro: "Вопрос, ответ на который знаете только вы: по нему можно подтвердить вашу личность. Ответ хранится в виде, из которого его нельзя прочитать; регистр букв и лишние пробелы не важны.",
  loadFailed: "Не удалось загрузить контрольный вопрос.",
  current: "Ваш вопрос",
  none: "Контрольный вопрос не задан.",
  question: "Вопрос",
  answer: "Ответ",
  answerHint: "Регистр букв, ё/е и лишние пробелы не важны.",
  save: "Сохранить",
  saving: "Сохранение…",
  change: "Изменить вопрос и ответ",
  saved: "Контрольный вопрос сохранён.",
  remove: "Удалить вопрос",
  removeTitle: "Удалить контрольный вопрос?",
  removeBody: "Приложения, которые подтверждают вашу личность по нему, больше не смогут этого делать.",
  removed: "Контрольный вопрос удалён.",
  cancel: "Отмена",
  required: "Заполните это поле.",
  tooLong: "Не больше 500 символов.",
};

const DICTIONARIES: Record<TLang, Record<TKey, string>> = { en, ru };

export function useSecurityQuestionText(): (key: TKey, params?: Record<string, string>) => string {
  return useAreaText(DICTIONARIES);
}
