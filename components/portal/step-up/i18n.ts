"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// "Confirm it's you": what the portal says before and after a sensitive change needs a new sign-in.
const en = {
  title: "Confirm it's you",
  body: "You signed in a while ago. To change your password, two-factor sign-in, security question, e-mail or phone, enter your password again (and the one-time code if two-factor sign-in is on). You will come back to this page.",
  notice: "Changes on this page need a recent sign-in. Confirm it's you before you make them.",
  noticeContacts: "Changing your e-mail or phone needs a recent sign-in. Confirm it's you before you do.",
  confirm: "Sign in again",
  confirmNow: "Confirm it's you",
  pending: "Redirecting…",
  failed: "Sign-in could not be started. Try again.",
  cancel: "Cancel",
};
type TKey = keyof typeof en;

const ru: Record<TKey, string> = {
  title: "Подтвердите, что это вы",
  body: "Вы вошли довольно давно. Чтобы изменить пароль, двухфакторный вход, контрольный вопрос, электронную почту или телефон, введите пароль ещё раз (и одноразовый код, если двухфакторный вход включён). Затем вы вернётесь на эту страницу.",
  notice: "Изменения на этой странице требуют недавнего входа. Подтвердите, что это вы, прежде чем их вносить.",
  noticeContacts: "Для смены электронной почты или телефона нужен недавний вход. Подтвердите, что это вы, прежде чем менять их.",
  confirm: "Войти снова",
  confirmNow: "Подтвердить, что это я",
  pending: "Переход…",
  failed: "Не удалось начать вход. Повторите попытку.",
  cancel: "Отмена",
};

const DICTIONARIES: Record<TLang, Record<TKey, string>> = { en, ru };

export function useStepUpText(): (key: TKey) => string {
  return useAreaText(DICTIONARIES);
}
