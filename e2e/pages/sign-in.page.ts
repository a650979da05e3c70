import { expect, type Locator, type Page } from "@playwright/test";
import { IdpLoginPage } from "./idp-login.page.ts";

/** The console's sign-in: straight on to the service's sign-in page, or a reason and a button. */
export class SignInPage {
  readonly submit: Locator;
  readonly error: Locator;
  readonly idp: IdpLoginPage;

  constructor(readonly page: Page) {
    // The console's own button (the service's sign-in page has a "Sign in" button too).
    this.submit = page.locator(".sign-in__submit");
    // Scoped to the page body: Next keeps an empty route announcer with role "alert" outside it.
    this.error = page.getByRole("main").getByRole("alert");
    this.idp = new IdpLoginPage(page);
  }

  /** Opens the console's sign-in, which goes straight on to the service's sign-in page when it has nothing to say. */
  async goto(): Promise<void> {
    await this.page.goto("console/sign-in");
  }

  /** The console's own page: shown only with something to say (a refusal, an ended session, a failure). */
  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/sign-in(\?.*)?$/);
    await expect(this.page.getByRole("heading", { name: "Sign in to the console" })).toBeVisible();
  }

  /** A signed-out visitor of the console lands on the service's sign-in page. */
  async expectSentToSignIn(): Promise<void> {
    await this.idp.expectShown();
  }

  /** The console's button when its page is shown, then the service's sign-in page. */
  async signIn(login: string, password: string): Promise<void> {
    const heading = this.page.getByRole("heading", { name: "Sign in to the console" });
    await expect(heading.or(this.idp.identifier)).toBeVisible();
    if (await heading.isVisible()) await this.submit.click();
    await this.idp.signIn(login, password);
  }
}
