import { expect, type Locator, type Page } from "@playwright/test";

export type TNewClient = { id: string; name: string; scopes: string; redirectUris?: string; grantTypes?: string[] };

const GRANT_TYPES = ["client_credentials", "authorization_code", "refresh_token"];

export class ClientsPage {
  readonly heading: Locator;
  readonly search: Locator;
  readonly table: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Client applications", level: 1 });
    this.search = page.getByRole("searchbox", { name: "Search" });
    this.table = page.getByRole("table");
    this.dialog = page.getByRole("dialog");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/clients");
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/clients$/);
    await expect(this.heading).toBeVisible();
  }

  row(clientId: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name: clientId, exact: true }) });
  }

  async create(client: TNewClient): Promise<void> {
    const form = this.dialog.filter({ has: this.page.getByRole("heading", { name: "New client application" }) });
    // A click that lands before React has hydrated the page does nothing; click again until it opens.
    await expect(async () => {
      await this.page.getByRole("button", { name: "New client" }).click();
      await expect(form).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await form.getByLabel("Client id").fill(client.id);
    await form.getByLabel("Name").fill(client.name);
    await form.getByLabel("System scopes").fill(client.scopes);
    if (client.redirectUris) await form.getByLabel("Redirect URIs", { exact: true }).fill(client.redirectUris);
    if (client.grantTypes) for (const g of GRANT_TYPES) await form.getByLabel(g, { exact: true }).setChecked(client.grantTypes.includes(g));
    await form.getByRole("button", { name: "Create" }).click();
  }

  /** Reads the secret from the one-time panel, then closes it; the panel must say it is shown once. */
  async takeOneTimeSecret(label = "Client secret"): Promise<string> {
    const panel = this.dialog.filter({ hasText: "it will not be shown again" });
    await expect(panel).toBeVisible();
    const secret = await panel.getByLabel(label).inputValue();
    await panel.getByRole("button", { name: "I have saved it" }).click();
    await expect(panel).toBeHidden();
    return secret;
  }

  /** Confirms a rotation; the new secret is then in the one-time panel. */
  async rotateSecret(clientId: string): Promise<void> {
    await this.row(clientId).getByRole("button", { name: `Rotate secret ${clientId}` }).click();
    const confirm = this.dialog.filter({ hasText: `Rotate the secret of ${clientId}?` });
    await confirm.getByRole("button", { name: "Rotate", exact: true }).click();
  }

  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
  }

  async signOut(): Promise<void> {
    await this.page.getByRole("button", { name: "Sign out" }).click();
  }
}
