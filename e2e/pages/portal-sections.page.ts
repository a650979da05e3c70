import { expect, type Locator, type Page } from "@playwright/test";
import { PortalPage } from "./portal.page.ts";

// The portal's feature pages, on top of the portal's frame (portal.page.ts).

/** Clicks until the page reacts: a click that lands before React has hydrated does nothing. */
async function clickUntil(button: Locator, reacted: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await button.click();
    await reacted();
  }).toPass({ timeout: 15_000 });
}

/** A portal page with what every section has: a heading, and the outcome of the last action above its content. */
export class PortalSectionPage extends PortalPage {
  async expectSignedIn(sub: string): Promise<void> {
    await expect(this.page.getByTestId("portal-user-sub")).toHaveText(sub);
    await expect(this.nav).toBeVisible();
  }

  async open(section: "Overview" | "Profile" | "Devices" | "Consents" | "Events"): Promise<void> {
    await this.nav.getByRole("link", { name: section, exact: true }).click();
    await expect(this.page.getByRole("heading", { level: 1, name: section })).toBeVisible();
  }

  status(text: string | RegExp): Locator {
    return this.page.getByRole("main").getByRole("status").filter({ hasText: text });
  }

  alert(text: string | RegExp): Locator {
    return this.page.getByRole("main").getByRole("alert").filter({ hasText: text });
  }
}

/** /account/profile: the form of attributes and a card per contact with its change by code. */
export class ProfilePage extends PortalSectionPage {
  readonly form: Locator;
  readonly save: Locator;

  constructor(page: Page) {
    super(page);
    this.form = page.getByRole("form", { name: "Personal data" });
    this.save = this.form.getByRole("button", { name: "Save" });
  }

  field(label: string): Locator {
    return this.form.getByLabel(label, { exact: true });
  }

  contact(label: "E-mail" | "Phone"): Locator {
    return this.page.getByRole("region", { name: label, exact: true });
  }

  /** Opens the card's address form, types the new address and asks for a code. */
  async startChange(label: "E-mail" | "Phone", address: string): Promise<void> {
    const card = this.contact(label);
    const input = card.getByLabel(label === "E-mail" ? "New e-mail address" : "New phone number");
    await clickUntil(card.getByRole("button", { name: /^(Change|Add) / }), () => expect(input).toBeVisible({ timeout: 1_000 }));
    await input.fill(address);
    await card.getByRole("button", { name: "Send code" }).click();
    await expect(card.getByLabel("Code from the message")).toBeVisible();
  }

  async enterCode(label: "E-mail" | "Phone", code: string): Promise<void> {
    const card = this.contact(label);
    await card.getByLabel("Code from the message").fill(code);
    await card.getByRole("button", { name: "Confirm" }).click();
  }
}

/** A page of the portal that lists items in a table, each with a button that removes it after a confirmation. */
export class PortalListPage extends PortalSectionPage {
  readonly table: Locator;

  constructor(
    page: Page,
    caption: string,
    readonly action: string,
  ) {
    super(page);
    this.table = page.getByRole("table", { name: caption });
  }

  row(text: string): Locator {
    return this.table.getByRole("row").filter({ hasText: text });
  }

  /** Presses the row's button (its name is the action and the item) and confirms in the dialog. */
  async remove(name: string): Promise<void> {
    await this.row(name).getByRole("button", { name: `${this.action} ${name}` }).click();
    const dialog = this.page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: this.action, exact: true }).click();
  }
}

export const devicesPage = (page: Page) => new PortalListPage(page, "Your devices", "Sign out");
export const consentsPage = (page: Page) => new PortalListPage(page, "Applications you allowed", "Revoke");
