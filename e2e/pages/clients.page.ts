import { expect, type Locator, type Page } from "@playwright/test";

export type TKind = "web" | "spa" | "m2m";

export const KIND_LABELS: Record<TKind, string> = { web: "Web application", spa: "Single-page or native app", m2m: "Machine-to-machine" };

export type TNewClient = {
  id: string;
  name: string;
  /** Without it: a web application when redirect URIs are given, else machine-to-machine. */
  kind?: TKind;
  /** System scopes, space-separated, ticked in the picker. */
  scopes: string;
  userScopes?: string;
  redirectUris?: string;
  /** Exactly these grant types are checked; without it the form's default stays. */
  grantTypes?: ("client_credentials" | "authorization_code" | "refresh_token")[];
};

const GRANT_TYPES = ["client_credentials", "authorization_code", "refresh_token"] as const;

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

  /** Opens the empty form of a new client and returns it. */
  async openNew(): Promise<Locator> {
    const form = this.dialog.filter({ has: this.page.getByRole("heading", { name: "New client application" }) });
    // A click that lands before React has hydrated the page does nothing; click again until it opens.
    await expect(async () => {
      await this.page.getByRole("button", { name: "New client" }).click();
      await expect(form).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    return form;
  }

  /** The scope picker of a form: "System scopes" or "User scopes". */
  scopePicker(form: Locator, legend: "System scopes" | "User scopes"): Locator {
    return form.getByRole("group", { name: new RegExp(`^${legend}`) });
  }

  async pickScopes(form: Locator, legend: "System scopes" | "User scopes", scopes: string): Promise<void> {
    const picker = this.scopePicker(form, legend);
    for (const scope of scopes.split(/\s+/).filter(Boolean)) await picker.getByRole("checkbox", { name: scope, exact: true }).check();
  }

  /** Fills the form of a new application and submits it; on success the console opens the application's page. */
  async create(client: TNewClient): Promise<void> {
    const form = await this.openNew();
    await form.getByRole("radio", { name: KIND_LABELS[client.kind ?? (client.redirectUris ? "web" : "m2m")] }).check();
    await form.getByLabel("Client id").fill(client.id);
    await form.getByLabel("Name").fill(client.name);
    if (client.kind !== "spa") await this.pickScopes(form, "System scopes", client.scopes);
    if (client.userScopes) await this.pickScopes(form, "User scopes", client.userScopes);
    if (client.redirectUris) await form.getByLabel("Redirect URIs", { exact: true }).fill(client.redirectUris);
    for (const g of client.grantTypes ? GRANT_TYPES : []) await form.getByLabel(g, { exact: true }).setChecked(client.grantTypes!.includes(g));
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
