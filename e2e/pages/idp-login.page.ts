import { expect, type Locator, type Page } from "@playwright/test";

/** The service's own sign-in page ({ctx}/login), where console and portal send people to sign in. */
export class IdpLoginPage {
  readonly identifier: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.identifier = page.getByLabel("Username, e-mail or phone");
    this.password = page.getByLabel("Password");
    this.submit = page.getByRole("button", { name: "Sign in", exact: true });
    this.error = page.getByRole("alert");
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\?/);
    await expect(this.page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
  }

  /** The button of an external provider the page offers. */
  externalButton(provider: string): Locator {
    return this.page.getByRole("button", { name: `Sign in with ${provider}`, exact: true });
  }

  async signIn(identifier: string, password: string): Promise<void> {
    await this.expectShown();
    await this.identifier.fill(identifier);
    await this.password.fill(password);
    await this.submit.click();
  }
}
