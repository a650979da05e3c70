"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The passkey policy page's own words.
const en = {
  "pkpolicy.title": "Passkey policy",
  "pkpolicy.intro":
    "Who may add passkeys and which authenticators are accepted. Applies to new passkeys on every instance at once; passkeys already registered keep signing people in. Signing in with a passkey always requires user verification.",
  "pkpolicy.loading": "Loading…",
  "pkpolicy.registration": "Registration",
  "pkpolicy.offered": "Offer passkeys (people may add them in their account)",
  "pkpolicy.requiredForAdmins": "Require a passkey of console users before the console opens",
  "pkpolicy.requiredHint": "A console user without one is sent to their account's passkeys page to add one. You need a passkey yourself to turn this on.",
  "pkpolicy.attachment": "Allowed authenticators",
  "pkpolicy.attachment.any": "Any",
  "pkpolicy.attachment.platform": "Built into the device (platform)",
  "pkpolicy.attachment.cross-platform": "Security keys (cross-platform)",
  "pkpolicy.userVerification": "User verification when adding a passkey",
  "pkpolicy.uv.required": "Required (PIN, fingerprint, face)",
  "pkpolicy.uv.preferred": "Preferred",
  "pkpolicy.attestation": "Attestation",
  "pkpolicy.attestationKind": "Attestation",
  "pkpolicy.att.none": "None: any authenticator",
  "pkpolicy.att.direct": "Direct: only the authenticator models picked below, proven by the FIDO metadata",
  "pkpolicy.metadata": "FIDO metadata",
  "pkpolicy.metadataNone": "No metadata uploaded.",
  "pkpolicy.metadataLoaded": "{count} authenticator models ({source}).",
  "pkpolicy.signed": "a BLOB signed by the FIDO Alliance",
  "pkpolicy.unsigned": "a JSON payload you uploaded",
  "pkpolicy.upload": "Upload metadata (MDS3 BLOB or its JSON)",
  "pkpolicy.uploading": "Uploading…",
  "pkpolicy.uploaded": "Metadata uploaded: {count} authenticator models.",
  "pkpolicy.filter": "Find a model",
  "pkpolicy.allowed": "Allowed models",
  "pkpolicy.compromised": "reported compromised",
  "pkpolicy.noMatch": "No model matches.",
  "pkpolicy.save": "Save policy",
  "pkpolicy.saving": "Saving…",
  "pkpolicy.saved": "The policy is saved and applies on every instance.",
};
export type TPkPolicyKey = keyof typeof en;

const ru: Record<TPkPolicyKey, string> = {
  "pkpolicy.title": "Политика ключей входа",
  "pkpolicy.intro":
    "Кто может добавлять ключи входа и какие аутентификаторы принимаются. Действует для новых ключей сразу на всех экземплярах; уже добавленные ключи продолжают впускать. Вход по ключу всегда требует проверки пользователя.",
  "pkpolicy.loading": "Загрузка…",
  "pkpolicy.registration": "Добавление ключей",
  "pkpolicy.offered": "Предлагать ключи входа (люди могут добавлять их в своём кабинете)",
  "pkpolicy.requiredForAdmins": "Требовать ключ входа от пользователей консоли, прежде чем открыть консоль",
  "pkpolicy.requiredHint": "Пользователь консоли без ключа будет отправлен на страницу ключей своего кабинета, чтобы добавить его. Чтобы включить это, у вас самих должен быть ключ.",
  "pkpolicy.attachment": "Допустимые аутентификаторы",
  "pkpolicy.attachment.any": "Любые",
  "pkpolicy.attachment.platform": "Встроенные в устройство (platform)",
  "pkpolicy.attachment.cross-platform": "Аппаратные ключи (cross-platform)",
  "pkpolicy.userVerification": "Проверка пользователя при добавлении ключа",
  "pkpolicy.uv.required": "Обязательна (PIN, отпечаток, лицо)",
  "pkpolicy.uv.preferred": "Желательна",
  "pkpolicy.attestation": "Аттестация",
  "pkpolicy.attestationKind": "Аттестация",
  "pkpolicy.att.none": "Нет: любой аутентификатор",
  "pkpolicy.att.direct": "Прямая: только выбранные ниже модели, подтверждённые метаданными FIDO",
  "pkpolicy.metadata": "Метаданные FIDO",
  "pkpolicy.metadataNone": "Метаданные не загружены.",
  "pkpolicy.metadataLoaded": "Моделей аутентификаторов: {count} ({source}).",
  "pkpolicy.signed": "BLOB с подписью FIDO Alliance",
  "pkpolicy.unsigned": "загруженный вами JSON",
  "pkpolicy.upload": "Загрузить метаданные (MDS3 BLOB или его JSON)",
  "pkpolicy.uploading": "Загрузка…",
  "pkpolicy.uploaded": "Метаданные загружены: моделей — {count}.",
  "pkpolicy.filter": "Найти модель",
  "pkpolicy.allowed": "Разрешённые модели",
  "pkpolicy.compromised": "объявлена скомпрометированной",
  "pkpolicy.noMatch": "Подходящих моделей нет.",
  "pkpolicy.save": "Сохранить политику",
  "pkpolicy.saving": "Сохранение…",
  "pkpolicy.saved": "Политика сохранена и действует на всех экземплярах.",
};

const TEXT: Record<TLang, Record<TPkPolicyKey, string>> = { en, ru };

export function usePasskeyPolicyText() {
  return useAreaText(TEXT);
}
