import { expect, type Locator, type Page } from "@playwright/test";

export class SignInPage {
  readonly login: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.login = page.getByLabel("Login");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in" });
    // Scoped to the page body: Next keeps an empty route announcer with role "alert" outside it.
    this.error = page.getByRole("main").getByRole("alert");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/sign-in");
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/sign-in$/);
    await expect(this.page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  }

  async signIn(login: string, password: string): Promise<void> {
    await this.login.fill(login);
    await this.password.fill(password);
    await this.submit.click();
  }
}
