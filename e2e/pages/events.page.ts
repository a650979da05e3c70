import { readFile } from "node:fs/promises";
import { expect, type Locator, type Page } from "@playwright/test";

export type TEventFilter = { sub?: string; client?: string; type?: string; ip?: string };

const FIELDS: Record<keyof TEventFilter, string> = { sub: "User: sub, name, e-mail or phone", client: "Client", type: "Type", ip: "IP address" };

export class EventsPage {
  readonly heading: Locator;
  readonly filters: Locator;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Security events", level: 1 });
    this.filters = page.getByRole("search", { name: "Filters" });
    this.table = page.getByRole("table", { name: "Security events" });
  }

  async goto(query = ""): Promise<void> {
    await this.page.goto(`console/events${query ? `?${query}` : ""}`);
    await this.expectShown();
  }

  async expectShown(): Promise<void> {
    await expect(this.page).toHaveURL(/\/console\/events(\?.*)?$/);
    await expect(this.heading).toBeVisible();
  }

  field(name: keyof TEventFilter): Locator {
    return this.filters.getByLabel(FIELDS[name], { exact: true });
  }

  /** Fills the given filter fields and applies them; the filter lands in the URL. */
  async filter(filter: TEventFilter): Promise<void> {
    for (const [name, value] of Object.entries(filter)) await this.field(name as keyof TEventFilter).fill(value);
    await this.filters.getByRole("button", { name: "Apply" }).click();
    for (const [name, value] of Object.entries(filter)) await expect(this.page).toHaveURL(new RegExp(`[?&]${name}=${encodeURIComponent(value).replace(/\./g, "\\.")}(&|$)`));
  }

  /** The rows of the table (its header row left out). */
  rows(): Locator {
    return this.table.locator("tbody tr");
  }

  rowsOfType(type: string): Locator {
    // The type column shows the event's title, then its type as recorded.
    return this.rows().filter({ has: this.page.getByRole("cell").getByText(type, { exact: true }) });
  }

  /** Clicks "Download CSV" and returns the downloaded file's text and suggested name. */
  async downloadCsv(): Promise<{ text: string; name: string }> {
    const download = this.page.waitForEvent("download");
    await this.page.getByRole("link", { name: "Download CSV" }).click();
    const file = await download;
    const bytes = await readFile((await file.path())!);
    return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), name: file.suggestedFilename() };
  }
}
