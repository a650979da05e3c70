import { expect, type Locator, type Page } from "@playwright/test";

export class UserDetailPage {
  readonly form: Locator;
  readonly deleteDialog: Locator;
  readonly devices: Locator;
  readonly consents: Locator;
  readonly recentEvents: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByRole("form", { name: "Attributes" });
    this.deleteDialog = page.getByRole("dialog");
    this.devices = page.getByRole("region", { name: "Devices and browsers" });
    this.consents = page.getByRole("region", { name: "Consents to applications" });
    this.recentEvents = page.getByRole("region", { name: "Recent security events" });
  }

  async goto(sub: string): Promise<void> {
    await this.page.goto(`console/users/${encodeURIComponent(sub)}`);
    await this.expectShown(sub);
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

  /** A row of a card's table that holds `text` in a cell. */
  rowIn(card: Locator, text: string): Locator {
    return card.getByRole("row").filter({ hasText: text });
  }

  /** Confirms the dialog titled `title` with its `confirm` button. */
  private async confirm(title: string, confirm: string): Promise<void> {
    const dialog = this.page.getByRole("dialog").filter({ hasText: title });
    await dialog.getByRole("button", { name: confirm, exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  async signOutDevice(name: string): Promise<void> {
    await this.devices.getByRole("button", { name: `Sign out ${name}`, exact: true }).click();
    await this.confirm(`Sign out ${name}?`, "Sign out");
  }

  async endAllSessions(sub: string): Promise<void> {
    await this.devices.getByRole("button", { name: "End all sessions", exact: true }).click();
    await this.confirm(`End all sessions of ${sub}?`, "End all sessions");
  }

  async revokeConsent(clientId: string): Promise<void> {
    await this.consents.getByRole("button", { name: `Revoke ${clientId}`, exact: true }).click();
    await this.confirm(`Revoke the consent to ${clientId}?`, "Revoke");
  }
}
