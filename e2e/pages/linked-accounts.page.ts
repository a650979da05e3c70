import { expect, type Locator, type Page } from "@playwright/test";
import { PortalSectionPage } from "./portal-sections.page.ts";

/** /account/linked-accounts: the person's external accounts, each with "Unlink", and a "Link" button per provider. */
export class LinkedAccountsPage extends PortalSectionPage {
  readonly heading: Locator;
  readonly table: Locator;

  constructor(page: Page) {
    super(page);
    this.heading = page.getByRole("heading", { level: 1, name: "Linked accounts" });
    this.table = page.getByRole("table", { name: "Your linked accounts" });
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/account\/linked-accounts/);
    await expect(this.heading).toBeVisible();
  }

  row(accountName: string): Locator {
    return this.table.getByRole("row").filter({ hasText: accountName });
  }

  /** Presses "Link a … account": the browser leaves for the provider. */
  async link(provider: string): Promise<void> {
    const button = this.page.getByRole("button", { name: `Link a ${provider} account` });
    await expect(button).toBeEnabled();
    await button.click();
  }
}
