import { expect, type Locator, type Page } from "@playwright/test";

export class OutboxPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Outbox" });
  }

  async goto(): Promise<void> {
    await this.page.goto("console/outbox");
    await expect(this.page.getByRole("heading", { name: "Outbox", level: 1 })).toBeVisible();
  }

  row(recipient: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name: recipient, exact: true }) });
  }

  /** Opens a message's decrypted text and returns it. */
  async textOf(recipient: string): Promise<string> {
    const region = this.page.getByRole("region", { name: `Text of the message to ${recipient}` });
    await expect(async () => {
      await this.row(recipient).getByRole("button", { name: `Show text ${recipient}` }).click();
      await expect(region).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const body = region.locator("pre");
    await expect(body).toBeVisible();
    return body.innerText();
  }
}
