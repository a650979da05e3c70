import { expect, type Locator, type Page } from "@playwright/test";

export class UserDetailPage {
  readonly form: Locator;
  readonly deleteDialog: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole("form", { name: "Attributes" });
    this.deleteDialog = page.getByRole("dialog");
  }

  async expectShown(sub: string): Promise<void> {
    await expect(this.page).toHaveURL(new RegExp(`/console/users/${encodeURIComponent(sub)}$`));
    await expect(this.form.getByLabel("Subject (sub)")).toHaveValue(sub);
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  /** A notice, badge or message in the page body (Next keeps an empty "alert" announcer outside it). */
  text(text: string): Locator {
    return this.page.getByRole("main").getByText(text, { exact: true });
  }

  async save(): Promise<void> {
    await this.form.getByRole("button", { name: "Save" }).click();
  }

  async lock(): Promise<void> {
    await this.page.getByRole("button", { name: "Lock", exact: true }).click();
    await expect(this.page.getByRole("button", { name: "Unlock", exact: true })).toBeVisible();
  }

  async delete(sub: string): Promise<void> {
    await this.page.getByRole("button", { name: "Delete user" }).click();
    const confirm = this.deleteDialog.filter({ hasText: `Delete user ${sub}?` });
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  }
}
