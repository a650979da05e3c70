import { expect, type Locator, type Page } from "@playwright/test";
import { IdpLoginPage } from "./idp-login.page.ts";

/** The console's sign-in page: one button to the service's sign-in page, and the reason it is shown again. */
export class SignInPage {
  readonly submit: Locator;
  readonly error: Locator;
  readonly idp: IdpLoginPage;

  constructor(readonly page: Page) {
    this.submit = page.getByRole("button", { name: "Sign in" });
    // Scoped to the page body: Next keeps an empty route announcer with role "alert" outside it.
    this.error = page.getByRole("main").getByRole("alert");
    this.idp = new IdpLoginPage(page);
  }

  async goto(): Promise<void> {
    await this.page.goto("console/sign-in");
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/sign-in(\?.*)?$/);
    await expect(this.page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  }

  /** The button, then the service's sign-in page. */
  async signIn(login: string, password: string): Promise<void> {
    await this.submit.click();
    await this.idp.signIn(login, password);
  }
}
