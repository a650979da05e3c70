import { expect, type Locator, type Page } from "@playwright/test";
import { openDialog } from "./users.page.ts";

export type TNewAttr = { name: string; type: string; required?: boolean; unique?: boolean; maxLength?: string };

/** The group profiles page. */
export class GroupProfilesPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Group profiles" });
  }

  async goto(): Promise<void> {
    await this.page.goto("console/group-profiles");
    await expect(this.page.getByRole("heading", { name: "Group profiles", level: 1 })).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell", { name, exact: true }) });
  }

  /** A new profile with these attributes, one row each. */
  async create(name: string, en: string, attrs: TNewAttr[]): Promise<void> {
    const form = this.page.getByRole("dialog", { name: "New group profile" });
    await openDialog(this.page, this.page.getByRole("button", { name: "New profile" }), form);
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Description in English").fill(en);
    for (const [i, a] of attrs.entries()) {
      await form.getByRole("button", { name: "Add an attribute" }).click();
      const row = form.getByRole("listitem", { name: `Attribute ${i + 1}` });
      await row.getByLabel("Attribute name").fill(a.name);
      await row.getByLabel("Type").selectOption({ label: a.type });
      await row.getByLabel("Required").setChecked(!!a.required);
      await row.getByLabel("Unique").setChecked(!!a.unique);
      if (a.maxLength) await row.getByLabel("Max length").fill(a.maxLength);
    }
    await form.getByRole("button", { name: "Create" }).click();
    await expect(form).toBeHidden();
    await expect(this.page.getByRole("status").filter({ hasText: `Profile ${name} saved.` })).toBeVisible();
  }
}

/** The groups page of one profile and a group's page. */
export class GroupsPage {
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole("table", { name: "Groups" });
  }

  async goto(profile: string): Promise<void> {
    await this.page.goto(`console/groups?profile=${profile}`);
    await expect(this.page.getByRole("heading", { name: "Groups", level: 1 })).toBeVisible();
    await expect(this.page.getByLabel("Profile")).toHaveValue(profile);
  }

  row(id: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: id, exact: true }) });
  }

  /** The new-group dialog, open. */
  async openNew(profile: string): Promise<Locator> {
    const form = this.page.getByRole("dialog", { name: `New group in ${profile}` });
    await openDialog(this.page, this.page.getByRole("button", { name: "New group" }), form);
    return form;
  }

  members(): Locator {
    return this.page.getByRole("table", { name: /^Members \(/ });
  }

  /** On a group's page: finds the account by `search` and adds it. */
  async addMember(search: string, sub: string): Promise<void> {
    // One step: a click on the match adds it.
    const form = this.page.getByRole("region", { name: "Add a member" });
    await form.getByRole("searchbox", { name: "Find a user" }).fill(search);
    await form.getByRole("list", { name: "Matches" }).getByRole("button", { name: new RegExp(`^Add .*${sub}`) }).click();
    await expect(this.page.getByRole("status").filter({ hasText: `${sub} added.` })).toBeVisible();
  }
}
