import { expect, type Locator, type Page } from "@playwright/test";
import { openDialog } from "./users.page.ts";

export type TNewAttribute = { name: string; type?: string; searchable?: boolean; pattern?: string; maxLength?: string; aliases?: string };

export class AttributesPage {
  readonly table: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Attributes" });
    this.dialog = page.getByRole("dialog");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/attributes");
    await expect(this.page.getByRole("heading", { name: "Attributes", level: 1 })).toBeVisible();
    await expect(this.table).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name, exact: true }) });
  }

  /** Fills the new-attribute dialog and submits it; it stays open when the server finds a problem. */
  async fillNew(attr: TNewAttribute): Promise<Locator> {
    const form = this.dialog.filter({ has: this.page.getByRole("heading", { name: "New attribute" }) });
    await openDialog(this.page, this.page.getByRole("button", { name: "New attribute" }), form);
    await form.getByLabel("Name").fill(attr.name);
    if (attr.type) await form.getByLabel("Type").selectOption(attr.type);
    if (attr.searchable) await form.getByLabel(/^Searchable/).check();
    if (attr.maxLength) await form.getByLabel("Maximum length").fill(attr.maxLength);
    if (attr.pattern) await form.getByLabel("Pattern (regular expression)").fill(attr.pattern);
    if (attr.aliases) await form.getByLabel("v1 aliases").fill(attr.aliases);
    await form.getByRole("button", { name: "Create" }).click();
    return form;
  }

  async remove(name: string): Promise<void> {
    await this.row(name).getByRole("button", { name: `Remove ${name}` }).click();
    const confirm = this.dialog.filter({ hasText: `Remove the attribute ${name}?` });
    await confirm.getByRole("button", { name: "Remove", exact: true }).click();
    await expect(confirm).toBeHidden();
  }
}
