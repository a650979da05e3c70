import { expect, type Locator, type Page } from "@playwright/test";
import { openDialog } from "./users.page.ts";

export type TNewRight = { name: string; en: string; subjects: string[]; objects: string[] };

/** The right definitions page. */
export class RightDefinitionsPage {
  readonly table: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Right definitions" });
    this.dialog = page.getByRole("dialog");
  }

  async goto(): Promise<void> {
    await this.page.goto("console/right-definitions");
    await expect(this.page.getByRole("heading", { name: "Right definitions", level: 1 })).toBeVisible();
    await expect(this.table).toBeVisible();
  }

  /** The name cell also holds the "built-in" badge, so the row is found by the name's own text. */
  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** The new-right dialog filled and submitted; it stays open when the server finds a problem. */
  async fillNew(right: TNewRight): Promise<Locator> {
    const form = this.page.getByRole("dialog", { name: "New right" });
    await openDialog(this.page, this.page.getByRole("button", { name: "New right" }), form);
    await form.getByLabel("Name").fill(right.name);
    await form.getByLabel("Description in English").fill(right.en);
    const groups = [
      ["Who may hold it", ["user", "application"], right.subjects],
      ["On what", ["user", "group", "application"], right.objects],
    ] as const;
    for (const [legend, all, chosen] of groups) {
      const group = form.getByRole("group", { name: legend });
      for (const kind of all) await group.getByRole("checkbox", { name: kind, exact: true }).setChecked(chosen.includes(kind));
    }
    await form.getByRole("button", { name: "Create" }).click();
    return form;
  }
}

const SEARCH_LABEL = { user: "Find a user", application: "Find an application", group: "Find a group" };

/** The rights browser: a party picked, its two panels, the grant and revoke dialogs. */
export class RightsBrowserPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("console/rights");
    await expect(this.page.getByRole("heading", { name: "Rights", level: 1 })).toBeVisible();
  }

  /** Picks a party in `scope` (the page, or the grant dialog): its kind, a search, then the match with this id. */
  async pick(scope: Locator, kindLabel: string, kind: "user" | "application" | "group", search: string, id: string): Promise<void> {
    await scope.getByLabel(kindLabel).selectOption({ label: kind });
    await scope.getByRole("searchbox", { name: SEARCH_LABEL[kind] }).fill(search);
    await scope.getByRole("list", { name: "Matches" }).getByRole("button", { name: new RegExp(id) }).click();
    await expect(scope.getByText(new RegExp(`^Chosen: .*${id}`))).toBeVisible();
  }

  table(dir: "of" | "on"): Locator {
    return this.page.getByRole("table", { name: dir === "of" ? "Rights it holds" : "Rights held on it" });
  }

  /** A row by the other party's id: an application's link text, or the id shown under an account's name. */
  row(dir: "of" | "on", party: string, right: string): Locator {
    return this.table(dir)
      .getByRole("row")
      .filter({ has: this.page.getByText(party, { exact: true }) })
      .filter({ has: this.page.getByRole("cell", { name: right, exact: true }) });
  }

  async grant(dir: "of" | "on", g: { right: string; kind: "user" | "application"; search: string; id: string; tags: string[] }): Promise<void> {
    const region = this.page.getByRole("region", { name: dir === "of" ? "Rights it holds" : "Rights held on it" });
    const dialog = this.page.getByRole("dialog", { name: /^Grant a right/ });
    await openDialog(this.page, region.getByRole("button", { name: "Grant a right" }), dialog);
    await dialog.getByLabel("Right", { exact: true }).selectOption(g.right);
    await this.pick(dialog, dir === "of" ? "Kind of object" : "Kind of holder", g.kind, g.search, g.id);
    await dialog.getByLabel("Tags").fill(g.tags.join("\n"));
    await dialog.getByRole("button", { name: "Grant", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page.getByRole("status").filter({ hasText: "Granted." })).toBeVisible();
  }

  /** Revokes one tag of a row; the confirmation says whether the right stays. */
  async revokeTag(dir: "of" | "on", party: string, right: string, tag: string, says: RegExp): Promise<void> {
    await this.row(dir, party, right).getByRole("button", { name: `Revoke tag ${tag} of ${right}` }).click();
    const confirm = this.page.getByRole("dialog", { name: `Revoke the tag ${tag}?` });
    await expect(confirm).toContainText(says);
    await confirm.getByRole("button", { name: "Revoke", exact: true }).click();
    await expect(confirm).toBeHidden();
  }
}
