"use client";
import type { TLang } from "../../i18n.ts";
import { useAreaText } from "../../i18n-provider.tsx";

// The branding page's own words.
const en = {
  "branding.title": "Branding",
  "branding.intro":
    "How the sign-in, consent, sign-up and recovery pages look: the product's name, its logo, an accent colour and links to your terms and privacy policy. Saved changes show on every instance at once, without a rebuild. Empty fields keep the built-in look.",
  "branding.loading": "Loading…",
  "branding.texts": "Name and links",
  "branding.productName": "Product name",
  "branding.productNameHint": "Shown above the sign-in form and in the browser tab. Empty: \u201cIdentity\u201d.",
  "branding.accent": "Accent colour",
  "branding.accentHint": "#rrggbb, for buttons and links. The text on it, and darker or lighter shades where it would be hard to read, are chosen for contrast.",
  "branding.accentPicker": "Pick the accent colour",
  "branding.termsUrl": "Terms of use (link)",
  "branding.privacyUrl": "Privacy policy (link)",
  "branding.urlHint": "An https address.",
  "branding.save": "Save",
  "branding.saving": "Saving…",
  "branding.saved": "Saved. The pages show it now.",
  "branding.logo": "Logo",
  "branding.logoHint": "PNG, JPEG or WebP, up to 40 KB. It is uploaded as soon as you choose it.",
  "branding.logoChoose": "Upload a logo",
  "branding.logoCurrent": "Current logo: {type}, {size} KB.",
  "branding.logoNone": "No logo.",
  "branding.logoUploading": "Uploading…",
  "branding.logoRemove": "Remove the logo",
  "branding.logoRefused": "Only PNG, JPEG or WebP images of at most 40 KB are accepted.",
  "branding.reset": "Reset to the built-in look",
  "branding.resetTitle": "Reset the branding?",
  "branding.resetBody": "The name, colour, links and logo are removed; the pages look as they did out of the box.",
  "branding.resetConfirm": "Reset",
  "branding.cancel": "Cancel",
  "branding.resetDone": "The built-in look is back.",
  "branding.error.productName": "Up to 60 characters.",
  "branding.error.accentColour": "Write the colour as # and six hexadecimal digits, e.g. #0b5cad.",
  "branding.error.url": "Use an https address.",
  "branding.preview": "Preview",
  "branding.previewLight": "Light",
  "branding.previewDark": "Dark",
  "branding.previewHeading": "Sign in",
  "branding.previewLogin": "Username",
  "branding.previewSubmit": "Sign in",
  "branding.previewForgot": "Forgot your password?",
  "branding.previewTerms": "Terms of use",
  "branding.previewPrivacy": "Privacy policy",
  "branding.previewLogoAlt": "Logo",
};

export type TBrandingKey = keyof typeof en;

const ru: Record<TBrandingKey, string> = {
  "branding.title": "Оформление",
  "branding.intro":
    "Как выглядят страницы входа, согласия, регистрации и восстановления: название продукта, логотип, акцентный цвет и ссылки на условия использования и политику конфиденциальности. Сохранённое видно на всех экземплярах сразу, без пересборки. Пустые поля оставляют встроенное оформление.",
  "branding.loading": "Загрузка…",
  "branding.texts": "Название и ссылки",
  "branding.productName": "Название продукта",
  "branding.productNameHint": "Над формой входа и во вкладке браузера. Пусто — «Идентификация».",
  "branding.accent": "Акцентный цвет",
  "branding.accentHint": "#rrggbb, для кнопок и ссылок. Цвет текста на нём и более тёмные или светлые оттенки там, где его трудно прочесть, подбираются по контрасту.",
  "branding.accentPicker": "Выбрать акцентный цвет",
  "branding.termsUrl": "Условия использования (ссылка)",
  "branding.privacyUrl": "Политика конфиденциальности (ссылка)",
  "branding.urlHint": "Адрес https.",
  "branding.save": "Сохранить",
  "branding.saving": "Сохранение…",
  "branding.saved": "Сохранено. Страницы уже выглядят так.",
  "branding.logo": "Логотип",
  "branding.logoHint": "PNG, JPEG или WebP, до 40 КБ. Загружается сразу после выбора.",
  "branding.logoChoose": "Загрузить логотип",
  "branding.logoCurrent": "Текущий логотип: {type}, {size} КБ.",
  "branding.logoNone": "Логотипа нет.",
  "branding.logoUploading": "Загрузка…",
  "branding.logoRemove": "Убрать логотип",
  "branding.logoRefused": "Принимаются только изображения PNG, JPEG или WebP размером до 40 КБ.",
  "branding.reset": "Вернуть встроенное оформление",
  "branding.resetTitle": "Сбросить оформление?",
  "branding.resetBody": "Название, цвет, ссылки и логотип будут удалены; страницы будут выглядеть как после установки.",
  "branding.resetConfirm": "Сбросить",
  "branding.cancel": "Отмена",
  "branding.resetDone": "Встроенное оформление восстановлено.",
  "branding.error.productName": "Не длиннее 60 символов.",
  "branding.error.accentColour": "Запишите цвет как # и шесть шестнадцатеричных цифр, например #0b5cad.",
  "branding.error.url": "Нужен адрес https.",
  "branding.preview": "Предпросмотр",
  "branding.previewLight": "Светлая тема",
  "branding.previewDark": "Тёмная тема",
  "branding.previewHeading": "Вход",
  "branding.previewLogin": "Имя пользователя",
  "branding.previewSubmit": "Войти",
  "branding.previewForgot": "Забыли пароль?",
  "branding.previewTerms": "Условия использования",
  "branding.previewPrivacy": "Политика конфиденциальности",
  "branding.previewLogoAlt": "Логотип",
};

const DICTIONARIES: Record<TLang, Record<TBrandingKey, string>> = { en, ru };

export function useBrandingText(): (key: TBrandingKey, params?: Record<string, string>) => string {
  return useAreaText(DICTIONARIES);
}
