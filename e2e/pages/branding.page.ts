import { expect, type Locator, type Page } from "@playwright/test";

const WORDS = {
  en: { title: "Branding", name: "Product name", accent: "Accent colour", terms: "Terms of use (link)", privacy: "Privacy policy (link)", save: "Save", saved: "Saved. The pages show it now.", logo: "Upload a logo", reset: "Reset to the built-in look", confirm: "Reset" },
  ru: { title: "Оформление", name: "Название продукта", accent: "Акцентный цвет", terms: "Условия использования (ссылка)", privacy: "Политика конфиденциальности (ссылка)", save: "Сохранить", saved: "Сохранено. Страницы уже выглядят так.", logo: "Загрузить логотип", reset: "Вернуть встроенное оформление", confirm: "Сбросить" },
};

/** The console's branding page: the sign-in pages' name, colour, links and logo, with a preview. */
export class BrandingPage {
  readonly w: (typeof WORDS)["en"];
  readonly productName: Locator;
  readonly accent: Locator;
  readonly terms: Locator;
  readonly privacy: Locator;
  readonly logo: Locator;
  readonly alert: Locator;

  constructor(
    readonly page: Page,
    lang: "en" | "ru" = "en",
  ) {
    this.w = WORDS[lang];
    this.productName = page.getByLabel(this.w.name);
    this.accent = page.getByLabel(this.w.accent, { exact: true });
    this.terms = page.getByLabel(this.w.terms);
    this.privacy = page.getByLabel(this.w.privacy);
    this.logo = page.getByLabel(this.w.logo);
    this.alert = page.getByRole("main").getByRole("alert");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/branding");
    await expect(this.page.getByRole("heading", { name: this.w.title, level: 1 })).toBeVisible();
    await expect(this.productName).toBeEditable();
  }

  /** One of the two preview cards ("light" or "dark"). */
  preview(scheme: "light" | "dark"): Locator {
    return this.page.getByTestId(`preview-${scheme}`);
  }

  async save(): Promise<void> {
    await this.page.getByRole("button", { name: this.w.save, exact: true }).click();
  }

  async expectSaved(): Promise<void> {
    await expect(this.page.getByRole("status").filter({ hasText: this.w.saved })).toBeVisible();
  }

  async uploadLogo(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    await this.logo.setInputFiles({ name, mimeType, buffer });
  }

  async reset(): Promise<void> {
    await this.page.getByRole("button", { name: this.w.reset }).click();
    await this.page.getByRole("dialog").getByRole("button", { name: this.w.confirm, exact: true }).click();
    await expect(this.page.getByRole("dialog")).toBeHidden();
  }
}
