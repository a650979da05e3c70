import { z } from "zod";

/** Languages messages are written in; Russian is the default. */
export const LOCALES = ["ru", "en"] as const;
export type TLocale = (typeof LOCALES)[number];

export const CHANNELS = ["email", "sms"] as const;
export type TChannel = (typeof CHANNELS)[number];

const ZCodeParams = z.strictObject({
  code: z.string().min(1).max(64),
  /** How long the code stays valid, in whole minutes. */
  minutes: z.number().int().min(1).max(7 * 24 * 60),
});
const ZNoParams = z.strictObject({});
const ZPasswordParams = z.strictObject({ password: z.string().min(1).max(1024) });
/** A link that sets a new password once: an administrator's recovery message. */
const ZLinkParams = z.strictObject({ link: z.string().url().regex(/^https?:\/\//).max(2048), hours: z.number().int().min(1).max(24 * 30) });

/** Changes of an account its holder is told about, whoever made them. */
export const NOTICE_KINDS = ["password_changed", "password_reset", "second_factor_off", "second_factor_reset", "factor_added", "backup_codes_new", "backup_code_used", "contact_changed", "external_linked", "new_device", "passkey_added", "passkey_removed", "password_removed"] as const;
export type TNoticeKind = (typeof NOTICE_KINDS)[number];
const ZNoticeParams = z.strictObject({
  kind: z.enum(NOTICE_KINDS),
  /** When it happened, ISO 8601 (UTC). */
  when: z.string().min(1).max(40),
  /** The address and the device it was done from, as far as the service knows them. */
  from: z.string().max(64).nullable(),
  device: z.string().max(120).nullable(),
  /** What it concerns, where that helps: the provider, the new address (masked), the generator. */
  detail: z.string().max(200).nullable(),
});

const PARAMS = {
  confirm_email_code: ZCodeParams,
  confirm_phone_code: ZCodeParams,
  registration_email_code: ZCodeParams,
  registration_phone_code: ZCodeParams,
  recovery_email_code: ZCodeParams,
  recovery_phone_code: ZCodeParams,
  test_message: ZNoParams,
  new_password: ZPasswordParams,
  recovery_invite: ZLinkParams,
  passkey_invite: ZLinkParams,
  account_notice: ZNoticeParams,
} as const;

export type TTemplateName = keyof typeof PARAMS;
export type TTemplateParams<T extends TTemplateName> = z.infer<(typeof PARAMS)[T]>;
export const TEMPLATE_NAMES = Object.keys(PARAMS) as TTemplateName[];

export type TRendered = { subject: string | null; text: string };
type TCode = z.infer<typeof ZCodeParams>;

const RU_MINUTES = { one: "минуту", few: "минуты", many: "минут", other: "минуты" } as Record<string, string>;
const ruPlural = new Intl.PluralRules("ru");

function minutesIn(locale: TLocale, n: number): string {
  if (locale === "en") return `${n} minute${n === 1 ? "" : "s"}`;
  return `${n} ${RU_MINUTES[ruPlural.select(n)] ?? "минут"}`;
}

const TEST: Record<TLocale, TRendered> = {
  ru: { subject: "Проверка доставки", text: "Это проверочное сообщение службы идентификации: доставка работает.\n" },
  en: { subject: "Delivery test", text: "This is a test message from the identity service: delivery works.\n" },
};

type TNotice = z.infer<typeof ZNoticeParams>;

const NOTICE_SUBJECTS: Record<TNoticeKind, Record<TLocale, string>> = {
  password_changed: { ru: "Пароль вашей учётной записи изменён", en: "Your password was changed" },
  password_reset: { ru: "Пароль вашей учётной записи сброшен", en: "Your password was reset" },
  second_factor_off: { ru: "Вход с кодом подтверждения выключен", en: "Two-step sign-in was turned off" },
  second_factor_reset: { ru: "Администратор сбросил вход с кодом подтверждения", en: "An administrator reset your two-step sign-in" },
  factor_added: { ru: "К учётной записи привязан генератор кодов", en: "A code generator was added to your account" },
  backup_codes_new: { ru: "Созданы новые резервные коды", en: "New backup codes were created" },
  backup_code_used: { ru: "Для входа использован резервный код", en: "A backup code was used to sign in" },
  contact_changed: { ru: "Адрес почты или номер телефона изменён", en: "Your e-mail address or phone number was changed" },
  external_linked: { ru: "К учётной записи привязан внешний аккаунт", en: "An external account was linked to your account" },
  new_device: { ru: "Вход с нового устройства", en: "Sign-in from a new device" },
  passkey_added: { ru: "К учётной записи добавлен ключ входа", en: "A passkey was added to your account" },
  passkey_removed: { ru: "Ключ входа удалён из учётной записи", en: "A passkey was removed from your account" },
  password_removed: { ru: "Пароль учётной записи удалён: вход только по ключу входа", en: "Your password was removed: you sign in with a passkey" },
};

const NOTICE_LINES: Record<TLocale, { when: string; from: string; detail: string; unknown: string; advice: string; sms: string }> = {
  ru: {
    when: "Когда",
    from: "Откуда",
    detail: "Что именно",
    unknown: "неизвестно",
    advice: "Если это были вы, ничего делать не нужно. Если нет, сразу смените пароль в личном кабинете, выйдите там на всех устройствах и сообщите администратору.",
    sms: "Если это не вы, смените пароль.",
  },
  en: {
    when: "When",
    from: "From",
    detail: "What",
    unknown: "unknown",
    advice: "If this was you, there is nothing more to do. If it was not, change your password in your account now, sign out of every device there, and tell your administrator.",
    sms: "If this was not you, change your password.",
  },
};

/** "2026-11-28 03:40 UTC": a moment every reader reads the same way. */
const utcMinute = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

/** What the "What" line is called where the detail is a figure or a reason rather than a thing. */
const DETAIL_LABELS: Partial<Record<TNoticeKind, Record<TLocale, string>>> = {
  backup_code_used: { ru: "Осталось кодов", en: "Codes left" },
};

/** The notice's "When/From/What" lines, as the built-in e-mail shows them. */
function noticeVars(p: TNotice, l: TLocale): Record<string, string> {
  const t = { ...NOTICE_LINES[l], detail: DETAIL_LABELS[p.kind]?.[l] ?? NOTICE_LINES[l].detail };
  const from = [p.from, p.device].filter(Boolean).join(", ") || t.unknown;
  const details = [`${t.when}: ${utcMinute(p.when)}`, `${t.from}: ${from}`, ...(p.detail ? [`${t.detail}: ${p.detail}`] : [])].join("\n");
  return { event: NOTICE_SUBJECTS[p.kind][l], when: utcMinute(p.when), details };
}

/** A message's text with {placeholders}; an SMS has no subject. */
export type TTemplateText = { subject: string | null; text: string };
type TTexts = Record<TLocale, TTemplateText>;

const emailCode = (subject: Record<TLocale, string>, lead: Record<TLocale, string>, ignore: Record<TLocale, string>): TTexts => ({
  ru: { subject: subject.ru, text: `${lead.ru}: {code}\n\nКод действует {validity}. ${ignore.ru}\n` },
  en: { subject: subject.en, text: `${lead.en}: {code}\n\nThe code is valid for {validity}. ${ignore.en}\n` },
});

const smsCode = (lead: Record<TLocale, string>): TTexts => ({
  ru: { subject: null, text: `${lead.ru}: {code}. Действует {validity}. Никому не сообщайте код.` },
  en: { subject: null, text: `${lead.en}: {code}. Valid for {validity}. Do not share this code.` },
});

/** The built-in text of each template on each channel it can go by; a template without a channel cannot be sent by it. */
const BUILT_IN_TEXTS: { [K in TTemplateName]: Partial<Record<TChannel, TTexts>> } = {
  confirm_email_code: {
    email: emailCode(
      { ru: "Код подтверждения адреса электронной почты", en: "Your e-mail confirmation code" },
      { ru: "Код подтверждения адреса", en: "Your confirmation code" },
      { ru: "Если вы не указывали этот адрес, просто проигнорируйте письмо.", en: "If you did not give this address, ignore this message." },
    ),
  },
  confirm_phone_code: { sms: smsCode({ ru: "Код подтверждения номера", en: "Phone confirmation code" }) },
  registration_email_code: {
    email: emailCode(
      { ru: "Код для завершения регистрации", en: "Your registration code" },
      { ru: "Код для завершения регистрации", en: "Your registration code" },
      { ru: "Если вы не регистрировались, просто проигнорируйте письмо.", en: "If you did not sign up, ignore this message." },
    ),
  },
  registration_phone_code: { sms: smsCode({ ru: "Код регистрации", en: "Registration code" }) },
  recovery_email_code: {
    email: emailCode(
      { ru: "Код для восстановления доступа", en: "Your password reset code" },
      { ru: "Код для восстановления доступа к учётной записи", en: "Your code to reset your password" },
      {
        ru: "Если вы не просили восстановить доступ, просто проигнорируйте письмо: пароль не изменится. Никому не сообщайте код.",
        en: "If you did not ask to reset your password, ignore this message: your password stays as it is. Do not share this code.",
      },
    ),
  },
  recovery_phone_code: { sms: smsCode({ ru: "Код восстановления доступа", en: "Password reset code" }) },
  test_message: {
    email: TEST,
    sms: { ru: { subject: null, text: TEST.ru.text.trim() }, en: { subject: null, text: TEST.en.text.trim() } },
  },
  account_notice: {
    email: {
      ru: { subject: "{event}", text: `{event}.\n\n{details}\n\n${NOTICE_LINES.ru.advice}\n` },
      en: { subject: "{event}", text: `{event}.\n\n{details}\n\n${NOTICE_LINES.en.advice}\n` },
    },
    sms: {
      ru: { subject: null, text: `{event} ({when}). ${NOTICE_LINES.ru.sms}` },
      en: { subject: null, text: `{event} ({when}). ${NOTICE_LINES.en.sms}` },
    },
  },
  recovery_invite: {
    email: {
      ru: {
        subject: "Восстановление доступа к учётной записи",
        text: "Администратор отправил вам ссылку, чтобы задать новый пароль:\n\n{link}\n\nСсылка действует {hours} ч и срабатывает один раз. Если вы не просили восстановить доступ, не открывайте её и сообщите администратору.\n",
      },
      en: {
        subject: "Set a new password for your account",
        text: "Your administrator sent you a link to set a new password:\n\n{link}\n\nThe link works once, for {hours} hours. If you did not ask for this, do not open it and tell your administrator.\n",
      },
    },
    sms: {
      ru: { subject: null, text: "Новый пароль можно задать по ссылке ({hours} ч, один раз): {link}" },
      en: { subject: null, text: "Set a new password here (once, {hours} h): {link}" },
    },
  },
  passkey_invite: {
    email: {
      ru: {
        subject: "Создайте ключ входа",
        text: "Администратор приглашает вас создать ключ входа (passkey): с ним вы входите без пароля, по отпечатку пальца, лицу или PIN-коду устройства.\n\n{link}\n\nСсылка действует {hours} ч и срабатывает один раз. Если вы этого не ждали, не открывайте её и сообщите администратору.\n",
      },
      en: {
        subject: "Create a passkey for your account",
        text: "Your administrator invites you to create a passkey: with it you sign in without a password, by your device's fingerprint, face or PIN.\n\n{link}\n\nThe link works once, for {hours} hours. If you did not expect this, do not open it and tell your administrator.\n",
      },
    },
    sms: {
      ru: { subject: null, text: "Создайте ключ входа по ссылке ({hours} ч, один раз): {link}" },
      en: { subject: null, text: "Create your passkey here (once, {hours} h): {link}" },
    },
  },
  new_password: {
    sms: {
      ru: { subject: null, text: "Ваш новый пароль: {password}. Никому его не сообщайте." },
      en: { subject: null, text: "Your new password: {password}. Do not share it with anyone." },
    },
  },
};

type TVars<P> = (p: P, l: TLocale) => Record<string, string>;
const codeVars: TVars<TCode> = (p, l) => ({ code: p.code, validity: minutesIn(l, p.minutes) });
const CODE = { names: ["code", "validity"], required: ["code"], secret: ["code"], of: codeVars };
const LINK = { names: ["link", "hours"], required: ["link"], secret: ["link"], of: (p: z.infer<typeof ZLinkParams>) => ({ link: p.link, hours: String(p.hours) }) };

/**
 * What each template's placeholders stand for, from its params. `required` must be in any rewritten
 * text; `secret` may only be in its body: a subject is stored unencrypted and listed in the outbox to
 * every console role, while the body is sealed and read only by administrators.
 */
const VARIABLES: { [K in TTemplateName]: { names: string[]; required: string[]; secret?: string[]; of: TVars<TTemplateParams<K>> } } = {
  confirm_email_code: CODE,
  confirm_phone_code: CODE,
  registration_email_code: CODE,
  registration_phone_code: CODE,
  recovery_email_code: CODE,
  recovery_phone_code: CODE,
  test_message: { names: [], required: [], of: () => ({}) },
  account_notice: { names: ["event", "when", "details"], required: ["event"], of: noticeVars },
  recovery_invite: LINK,
  passkey_invite: LINK,
  new_password: { names: ["password"], required: ["password"], secret: ["password"], of: (p) => ({ password: p.password }) },
};

/** The placeholders a template's text may use, those it must, and those its subject may not. */
export function placeholdersOf(template: TTemplateName): { names: string[]; required: string[]; secret: string[] } {
  const { names, required, secret = [] } = VARIABLES[template];
  return { names, required, secret };
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The placeholders a text uses that the template does not know. */
export function unknownPlaceholders(template: TTemplateName, text: string): string[] {
  const known = new Set(VARIABLES[template].names);
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((n) => !known.has(n)))];
}

// One pass: a value that itself looks like a placeholder (a detail, a device name) stays as it is.
const fill = (text: string, vars: Record<string, string>) => text.replace(PLACEHOLDER, (whole, name: string) => vars[name] ?? whole);

/** The built-in text of a template on a channel in a language, or undefined when it cannot go by that channel. */
export function builtInText(template: TTemplateName, channel: TChannel, locale: TLocale): TTemplateText | undefined {
  return BUILT_IN_TEXTS[template]?.[channel]?.[locale];
}

/** "en-US" → "en"; anything unsupported or absent → Russian. */
export function pickLocale(locale: string | undefined): TLocale {
  const base = (locale ?? "").toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? "") ? (base as TLocale) : "ru";
}

/**
 * The subject and text of one message: the administrator's text when given (`rewritten`), else the
 * built-in one, with its placeholders filled. A template used on a channel it has no form for, or
 * with wrong params, is a caller's bug: it throws rather than sending something malformed.
 */
export function renderTemplate<T extends TTemplateName>(template: T, channel: TChannel, locale: TLocale, params: TTemplateParams<T>, rewritten?: TTemplateText): TRendered {
  const source = builtInText(template, channel, locale);
  if (!source) throw new Error(`template ${template} has no ${channel} form`);
  const vars = (VARIABLES[template].of as TVars<TTemplateParams<T>>)(PARAMS[template].parse(params) as TTemplateParams<T>, locale);
  const { subject, text } = rewritten ?? source;
  // A secret never reaches the subject, even from a text stored before that rule.
  const subjectVars = Object.fromEntries(Object.entries(vars).filter(([name]) => !VARIABLES[template].secret?.includes(name)));
  return { subject: channel === "sms" || subject === null ? null : fill(subject, subjectVars), text: fill(text, vars) };
}
