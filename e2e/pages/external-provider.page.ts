import { expect, type Page } from "@playwright/test";

/** The external provider's own pages (oidc-provider's development login and consent), as a person sees them. */
export class ExternalProviderPage {
  constructor(
    readonly page: Page,
    readonly issuer: string,
  ) {}

  /** Signs in there as `login` (any password does) and allows the service, when the provider asks. */
  async signIn(login: string): Promise<void> {
    await expect(this.page).toHaveURL(new RegExp(`^${this.issuer}/interaction/`));
    await this.page.getByPlaceholder("Enter any login").fill(login);
    await this.page.getByPlaceholder("and password").fill("any password");
    await this.page.getByRole("button", { name: "Sign-in" }).click();
    await this.allowIfAsked();
  }

  /** The consent page, shown the first time the service asks for an account. */
  async allowIfAsked(): Promise<void> {
    const consent = this.page.getByRole("button", { name: "Continue" });
    const leftProvider = this.page.waitForURL((url) => !url.toString().startsWith(this.issuer), { timeout: 15_000 });
    await Promise.race([consent.click({ timeout: 15_000 }).catch(() => undefined), leftProvider]);
    await leftProvider;
  }
}
