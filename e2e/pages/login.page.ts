import { expect, type Locator, type Page } from "@playwright/test";

export type TLang = "en" | "ru";

const WORDS = {
  en: { title: "Sign in", identifier: "Username, e-mail or phone", password: "Password", submit: "Sign in", register: "Create an account", other: "Русский", qr: "Use a QR code instead", withPassword: "Sign in with a password instead" },
  ru: { title: "Вход", identifier: "Логин, e-mail или телефон", password: "Пароль", submit: "Войти", register: "Зарегистрироваться", other: "English", qr: "Вход по QR-коду", withPassword: "Войти с паролем" },
};

/** The service's own sign-in page ({ctx}/login), where an application's authorization leads. */
export class LoginPage {
  readonly identifier: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly registerLink: Locator;
  readonly languageLink: Locator;
  /** "Use a QR code instead", and the QR waiting page's way back. */
  readonly qrButton: Locator;
  readonly passwordLink: Locator;
  readonly error: Locator;

  constructor(
    readonly page: Page,
    readonly lang: TLang = "en",
  ) {
    const w = WORDS[lang];
    this.identifier = page.getByLabel(w.identifier);
    this.password = page.getByLabel(w.password, { exact: true });
    this.submit = page.getByRole("button", { name: w.submit, exact: true });
    this.registerLink = page.getByRole("link", { name: w.register });
    this.languageLink = page.getByRole("link", { name: w.other });
    this.qrButton = page.getByRole("button", { name: w.qr });
    this.passwordLink = page.getByRole("link", { name: w.withPassword });
    this.error = page.getByRole("main").getByRole("alert");
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\?flow=/);
    await expect(this.page.getByRole("heading", { name: WORDS[this.lang].title, level: 1 })).toBeVisible();
    await expect(this.page.locator("html")).toHaveAttribute("lang", this.lang);
  }

  async signIn(identifier: string, password: string): Promise<void> {
    await this.identifier.fill(identifier);
    await this.password.fill(password);
    await this.submit.click();
  }
}
