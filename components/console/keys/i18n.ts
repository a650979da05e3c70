"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The signing keys page's own words.
const en = {
  "keys.title": "Signing keys",
  "keys.intro":
    "Access and ID tokens are signed with the key marked “signing”. A rotation publishes a new key in the JWKS at once and lets it sign {ahead} later, so resource servers know it first; the old key keeps verifying its tokens until they expire, then leaves the JWKS. Every instance follows.",
  "keys.loading": "Loading…",
  "keys.loadFailed": "Could not load the keys.",
  "keys.empty": "No keys yet.",
  "keys.col.kid": "Key id",
  "keys.col.state": "State",
  "keys.col.signsFrom": "Signs from",
  "keys.col.retiredAt": "Stops signing",
  "keys.state.waiting": "published, signs soon",
  "keys.state.signing": "signing",
  "keys.state.verifying": "verifies its tokens",
  "keys.state.retired": "retired",
  "keys.state.withdrawn": "withdrawn (compromised)",
  "keys.rotate": "Rotate",
  "keys.rotateTitle": "Rotate the signing key?",
  "keys.rotateBody": "A new key is published now and signs from {at}. Tokens already issued stay valid.",
  "keys.compromised": "Rotate now: the key is compromised",
  "keys.compromisedTitle": "Withdraw the signing key at once?",
  "keys.compromisedBody": "The new key signs now and every other key leaves the JWKS now: every token they signed is refused, and applications have to sign people in again.",
  "keys.rotated": "New key {kid} signs from {at}.",
  "keys.cancel": "Cancel",
  "saml.title": "SAML signing key",
  "saml.intro":
    "SAML responses, assertions and logout messages are signed with it, apart from the token keys. Applications pin its certificate: a rotation publishes the new one in the SAML metadata at once and signs with it {ahead} later, so give it to the applications (or let them read the metadata again) before then.",
  "saml.rotateTitle": "Rotate the SAML signing key?",
  "saml.rotateBody": "A new certificate is published in the SAML metadata now and signs from {at}. Applications that do not have it by then refuse the responses.",
  "saml.compromisedTitle": "Withdraw the SAML signing key at once?",
  "saml.compromisedBody": "The new key signs now and the old certificate leaves the metadata now: every application refuses sign-ins until it is given the new certificate.",
  "common.retry": "Retry",
};

const ru: Record<keyof typeof en, string> = {
  "keys.title": "Ключи подписи",
  "keys.intro":
    "Токены доступа и ID-токены подписываются ключом с состоянием «подписывает». При ротации новый ключ сразу публикуется в JWKS и начинает подписывать через {ahead}, чтобы серверы ресурсов узнали его заранее; старый ключ проверяет свои токены, пока они не истекут, затем исчезает из JWKS. Все экземпляры следуют за ротацией.",
  "keys.loading": "Загрузка…",
  "keys.loadFailed": "Не удалось загрузить ключи.",
  "keys.empty": "Ключей пока нет.",
  "keys.col.kid": "Идентификатор ключа",
  "keys.col.state": "Состояние",
  "keys.col.signsFrom": "Подписывает с",
  "keys.col.retiredAt": "Перестаёт подписывать",
  "keys.state.waiting": "опубликован, скоро начнёт подписывать",
  "keys.state.signing": "подписывает",
  "keys.state.verifying": "проверяет свои токены",
  "keys.state.retired": "выведен",
  "keys.state.withdrawn": "отозван (скомпрометирован)",
  "keys.rotate": "Ротировать",
  "keys.rotateTitle": "Ротировать ключ подписи?",
  "keys.rotateBody": "Новый ключ публикуется сейчас и подписывает с {at}. Уже выданные токены остаются действительными.",
  "keys.compromised": "Ротировать сейчас: ключ скомпрометирован",
  "keys.compromisedTitle": "Отозвать ключ подписи немедленно?",
  "keys.compromisedBody": "Новый ключ подписывает сразу, все остальные ключи сразу исчезают из JWKS: все подписанные ими токены отклоняются, приложениям придётся заново выполнить вход пользователей.",
  "keys.rotated": "Новый ключ {kid} подписывает с {at}.",
  "keys.cancel": "Отмена",
  "saml.title": "Ключ подписи SAML",
  "saml.intro":
    "Им подписываются ответы, утверждения и сообщения о выходе SAML, отдельно от ключей токенов. Приложения закрепляют его сертификат: при ротации новый сертификат сразу публикуется в метаданных SAML и начинает подписывать через {ahead} — передайте его приложениям (или дайте им перечитать метаданные) до этого.",
  "saml.rotateTitle": "Ротировать ключ подписи SAML?",
  "saml.rotateBody": "Новый сертификат публикуется в метаданных SAML сейчас и подписывает с {at}. Приложения, которые не получат его к этому времени, будут отклонять ответы.",
  "saml.compromisedTitle": "Отозвать ключ подписи SAML немедленно?",
  "saml.compromisedBody": "Новый ключ подписывает сразу, старый сертификат сразу исчезает из метаданных: приложения не примут вход, пока не получат новый сертификат.",
  "common.retry": "Повторить",
};

const DICTIONARIES: Record<TLang, Record<keyof typeof en, string>> = { en, ru };

export type TKeysKey = keyof typeof en;
export type TKeysText = (key: TKeysKey, params?: Record<string, string>) => string;

export function useKeysText(): TKeysText {
  return useAreaText(DICTIONARIES);
}
