import { expect, type Locator, type Page } from "@playwright/test";
import { IdpLoginPage } from "./idp-login.page.ts";

/** The self-service portal ({ctx}/account): its sign-in panel, header, navigation and overview. */
export class PortalPage {
  readonly signInHeading: Locator;
  readonly signInButton: Locator;
  readonly nav: Locator;
  readonly overview: Locator;
  readonly idp: IdpLoginPage;

  constructor(readonly page: Page) {
    this.signInHeading = page.getByRole("heading", { name: "Sign in to your account" });
    this.signInButton = page.getByRole("button", { name: "Sign in" });
    this.nav = page.getByRole("navigation", { name: "Account sections" });
    this.overview = page.getByRole("heading", { name: "Overview", level: 1 });
    this.idp = new IdpLoginPage(page);
  }

  async goto(path = "account"): Promise<void> {
    await this.page.goto(path);
  }

  async expectSignInShown(): Promise<void> {
    await expect(this.signInHeading).toBeVisible();
  }

  /** From the sign-in panel through the service's sign-in page, back to the portal. */
  async signIn(identifier: string, password: string): Promise<void> {
    await this.expectSignInShown();
    await this.signInButton.click();
    await this.idp.signIn(identifier, password);
  }

  async expectOverview(): Promise<void> {
    await expect(this.page).toHaveURL(/\/account$/);
    await expect(this.overview).toBeVisible();
  }

  fact(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
