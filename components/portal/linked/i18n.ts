"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The words of the linked accounts page.
const en = {
  "linked.title": "Linked accounts",
  "linked.intro": "Accounts at other services you can sign in with. Unlinking one removes that way of signing in.",
  "linked.loadFailed": "Could not load your linked accounts.",
  "linked.empty": "No account is linked yet.",
  "linked.caption": "Your linked accounts",
  "linked.col.provider": "Service",
  "linked.col.name": "Account",
  "linked.col.actions": "Actions",
  "linked.unlink": "Unlink",
  "linked.confirmTitle": "Unlink {name}?",
  "linked.confirmBody": "You will no longer be able to sign in with this {provider} account, and what was stored for it is deleted.",
  "linked.unlinked": "{name} is unlinked.",
  "linked.gone": "That account was already unlinked.",
  "linked.add": "Link another account",
  "linked.addIntro": "You sign in at the service, then come back here.",
  "linked.linkWith": "Link a {provider} account",
  "linked.noProviders": "No other services are configured.",
  "linked.redirecting": "Going to {provider}…",
  "linked.bound": "The account is linked.",
  "linked.error.fa_bound_to_other_user": "That account is linked to another account here already.",
  "linked.error.fp_refused": "The other service did not confirm the account (or linking was cancelled there).",
  "linked.error.fp_unavailable": "The other service cannot be reached now. Try again later.",
  "linked.error.other": "Linking did not work. Try again.",
};

export type TLinkedKey = keyof typeof en;

const ru: Record<TLinkedKey, string> = {
  "linked.title": "Связанные учётные записи",
  "linked.intro": "Учётные записи других сервисов, с которыми можно входить. Если отвязать учётную запись, войти с ней будет нельзя.",
  "linked.loadFailed": "Не удалось загрузить связанные учётные записи.",
  "linked.empty": "Связанных учётных записей пока нет.",
  "linked.caption": "Ваши связанные учётные записи",
  "linked.col.provider": "Сервис",
  "linked.col.name": "Учётная запись",
  "linked.col.actions": "Действия",
  "linked.unlink": "Отвязать",
  "linked.confirmTitle": "Отвязать {name}?",
  "linked.confirmBody": "Входить с этой учётной записью {provider} будет нельзя, а сохранённые для неё данные будут удалены.",
  "linked.unlinked": "Учётная запись {name} отвязана.",
  "linked.gone": "Эта учётная запись уже отвязана.",
  "linked.add": "Связать другую учётную запись",
  "linked.addIntro": "Вы войдёте на сервисе и вернётесь сюда.",
  "linked.linkWith": "Связать учётную запись {provider}",
  "linked.noProviders": "Других сервисов не настроено.",
  "linked.redirecting": "Переход на {provider}…",
  "linked.bound": "Учётная запись связана.",
  "linked.error.fa_bound_to_other_user": "Эта учётная запись уже связана с другой учётной записью здесь.",
  "linked.error.fp_refused": "Другой сервис не подтвердил учётную запись (или связывание там отменено).",
  "linked.error.fp_unavailable": "Другой сервис сейчас недоступен. Повторите попытку позже.",
  "linked.error.other": "Связать учётную запись не удалось. Повторите попытку.",
};

export const LINKED_TEXT: Record<TLang, Record<TLinkedKey, string>> = { en, ru };

export type TLinkedText = (key: TLinkedKey, params?: Record<string, string>) => string;

export function useLinkedText(): TLinkedText {
  return useAreaText(LINKED_TEXT);
}
