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
export const NOTICE_KINDS = ["password_changed", "password_reset", "second_factor_off", "second_factor_reset", "factor_added", "backup_codes_new", "backup_code_used", "contact_changed", "external_linked", "new_device"] as const;
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

// One entry per template and channel it can go by; a template without a channel cannot be sent by it.
type TForms<P = TCode> = { email?: (p: P, l: TLocale) => TRendered; sms?: (p: P, l: TLocale) => TRendered };

const emailCode = (subject: Record<TLocale, string>, lead: Record<TLocale, string>, ignore: Record<TLocale, string>) =>
  (p: TCode, l: TLocale): TRendered => ({
    subject: subject[l],
    text: l === "ru"
      ? `${lead.ru}: ${p.code}\n\nКод действует ${minutesIn(l, p.minutes)}. ${ignore.ru}\n`
      : `${lead.en}: ${p.code}\n\nThe code is valid for ${minutesIn(l, p.minutes)}. ${ignore.en}\n`,
  });

const smsCode = (lead: Record<TLocale, string>) => (p: TCode, l: TLocale): TRendered => ({
  subject: null,
  text: l === "ru"
    ? `${lead.ru}: ${p.code}. Действует ${minutesIn(l, p.minutes)}. Никому не сообщайте код.`
    : `${lead.en}: ${p.code}. Valid for ${minutesIn(l, p.minutes)}. Do not share this code.`,
});

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

const noticeEmail = (p: TNotice, l: TLocale): TRendered => {
  const t = { ...NOTICE_LINES[l], detail: DETAIL_LABELS[p.kind]?.[l] ?? NOTICE_LINES[l].detail };
  const from = [p.from, p.device].filter(Boolean).join(", ") || t.unknown;
  const lines = [`${NOTICE_SUBJECTS[p.kind][l]}.`, "", `${t.when}: ${utcMinute(p.when)}`, `${t.from}: ${from}`, ...(p.detail ? [`${t.detail}: ${p.detail}`] : []), "", t.advice, ""];
  return { subject: NOTICE_SUBJECTS[p.kind][l], text: lines.join("\n") };
};

const noticeSms = (p: TNotice, l: TLocale): TRendered => ({ subject: null, text: `${NOTICE_SUBJECTS[p.kind][l]} (${utcMinute(p.when)}). ${NOTICE_LINES[l].sms}` });

const FORMS: { [K in TTemplateName]: TForms<TTemplateParams<K>> } = {
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
    email: (_p, l) => TEST[l],
    sms: (_p, l) => ({ subject: null, text: TEST[l].text.trim() }),
  },
  account_notice: { email: noticeEmail, sms: noticeSms },
  recovery_invite: {
    email: (p, l) => ({
      subject: l === "ru" ? "Восстановление доступа к учётной записи" : "Set a new password for your account",
      text:
        l === "ru"
          ? `Администратор отправил вам ссылку, чтобы задать новый пароль:\n\n${p.link}\n\nСсылка действует ${p.hours} ч и срабатывает один раз. Если вы не просили восстановить доступ, не открывайте её и сообщите администратору.\n`
          : `Your administrator sent you a link to set a new password:\n\n${p.link}\n\nThe link works once, for ${p.hours} hours. If you did not ask for this, do not open it and tell your administrator.\n`,
    }),
    sms: (p, l) => ({
      subject: null,
      text: l === "ru" ? `Новый пароль можно задать по ссылке (${p.hours} ч, один раз): ${p.link}` : `Set a new password here (once, ${p.hours} h): ${p.link}`,
    }),
  },
  new_password: {
    sms: (p, l) => ({
      subject: null,
      text: l === "ru" ? `Ваш новый пароль: ${p.password}. Никому его не сообщайте.` : `Your new password: ${p.password}. Do not share it with anyone.`,
    }),
  },
};

/** "en-US" → "en"; anything unsupported or absent → Russian. */
export function pickLocale(locale: string | undefined): TLocale {
  const base = (locale ?? "").toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? "") ? (base as TLocale) : "ru";
}

/**
 * The subject and text of one message. A template used on a channel it has no form for, or with
 * wrong params, is a caller's bug: it throws rather than sending something malformed.
 */
export function renderTemplate<T extends TTemplateName>(template: T, channel: TChannel, locale: TLocale, params: TTemplateParams<T>): TRendered {
  const form = (FORMS[template] as TForms<TTemplateParams<T>>)?.[channel];
  if (!form) throw new Error(`template ${template} has no ${channel} form`);
  return form(PARAMS[template].parse(params) as TTemplateParams<T>, locale);
}
