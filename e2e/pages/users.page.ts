import { expect, type Locator, type Page } from "@playwright/test";

export type TNewUser = { sub?: string; familyName?: string; givenName?: string; email?: string; emailConfirmed?: boolean; phone?: string; phoneConfirmed?: boolean; password?: string };

/** Opens a dialog with a button; a click that lands before React has hydrated does nothing, so click again. */
export async function openDialog(page: Page, button: Locator, dialog: Locator): Promise<void> {
  await expect(async () => {
    await button.click();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

export class UsersPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly table: Locator;
  readonly range: Locator;
  readonly createDialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Users", level: 1 });
    this.search = page.getByRole("searchbox", { name: "Search" });
    this.table = page.getByRole("table", { name: "Users" });
    this.range = page.getByTestId("users-range");
    this.createDialog = page.getByRole("dialog", { name: "Create user" });
  }

  async goto(): Promise<void> {
    await this.page.goto("console/users");
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/users(\?.*)?$/);
    await expect(this.heading).toBeVisible();
  }

  row(sub: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: sub, exact: true }) });
  }

  /** Fills the create dialog and submits it; it stays open when the server finds a problem. */
  async fillCreate(user: TNewUser): Promise<void> {
    const d = this.createDialog;
    await openDialog(this.page, this.page.getByRole("button", { name: "Create user" }), d);
    if (user.sub) await d.getByLabel("Subject (sub)").fill(user.sub);
    if (user.familyName) await d.getByLabel("Family name").fill(user.familyName);
    if (user.givenName) await d.getByLabel("Given name").fill(user.givenName);
    if (user.email) await d.getByLabel("E-mail", { exact: true }).fill(user.email);
    if (user.emailConfirmed) await d.getByLabel("E-mail confirmed").check();
    if (user.phone) await d.getByLabel("Phone", { exact: true }).fill(user.phone);
    if (user.phoneConfirmed) await d.getByLabel("Phone confirmed").check();
    if (user.password) await d.getByLabel("Password").fill(user.password);
    await d.getByRole("button", { name: "Create", exact: true }).click();
  }

  async create(user: TNewUser & { sub: string }): Promise<void> {
    await this.fillCreate(user);
    await expect(this.createDialog).toBeHidden();
    // The notice names the person as the console does elsewhere: the name, else the e-mail, with the id after it.
    const name = [user.givenName, user.familyName].filter(Boolean).join(" ");
    const title = name ? (user.email ? `${name} (${user.email})` : name) : (user.email ?? user.sub);
    const notice = this.page.getByRole("status").filter({ hasText: `User ${title} created.` });
    await expect(notice).toBeVisible();
    if (title !== user.sub) await expect(notice.locator("code")).toHaveText(user.sub);
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
    await expect(this.page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  }

  async open(sub: string): Promise<void> {
    await this.row(sub).getByRole("link", { name: sub, exact: true }).click();
  }
}
