import { expect, type Locator, type Page } from "@playwright/test";
import { openDialog } from "./users.page.ts";

export class ProvidersPage {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/providers");
    await expect(this.page.getByRole("heading", { name: "External providers", level: 1 })).toBeVisible();
  }

  get table(): Locator {
    return this.page.getByRole("table", { name: "External providers" });
  }

  row(label: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name: label, exact: true }) });
  }

  async openNew(): Promise<Locator> {
    const form = this.dialog.filter({ has: this.page.getByRole("heading", { name: "New provider" }) });
    await openDialog(this.page, this.page.getByRole("button", { name: "New provider" }), form);
    return form;
  }

  async openEdit(label: string): Promise<Locator> {
    const form = this.dialog.filter({ has: this.page.getByRole("heading", { name: `Edit ${label}` }) });
    await openDialog(this.page, this.row(label).getByRole("button", { name: `Edit ${label}` }), form);
    return form;
  }

  /** Presses "Test discovery" for what the form's discovery URL holds, and returns the announced outcome. */
  async testDiscovery(form: Locator, url: string): Promise<Locator> {
    await form.getByLabel("Discovery URL (issuer)").fill(url);
    await form.getByRole("button", { name: "Test discovery" }).click();
    const result = form.getByRole("status");
    await expect(result).toBeVisible();
    return result;
  }
}
