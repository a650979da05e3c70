import { expect, test } from "@playwright/test";
import { GroupProfilesPage, GroupsPage } from "./pages/groups.page.ts";
import { RightDefinitionsPage, RightsBrowserPage } from "./pages/rights.page.ts";
import { openDialog, UsersPage } from "./pages/users.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";

test("a profile with two attributes, a group created after a field error, members added and removed, a right granted on it, and the group deleted with the grant", async ({ page }) => {
  await signInAsAdmin(page);
  const tag = uniqueTag();
  const familyName = `Gruppova${tag}`;
  const [anna, boris] = [`grp-anna-${tag}`, `grp-boris-${tag}`];
  const users = new UsersPage(page);
  await users.goto();
  await users.create({ sub: anna, givenName: "Anna", familyName });
  await users.create({ sub: boris, givenName: "Boris", familyName });

  // A profile with a required unique title and an optional number.
  const profile = `orgs_${tag}`;
  const profiles = new GroupProfilesPage(page);
  await profiles.goto();
  await profiles.create(profile, "Organisations", [
    { name: "title", type: "string", required: true, unique: true, maxLength: "40" },
    { name: "size", type: "number" },
  ]);
  await expect(profiles.row(profile)).toContainText("title");
  await expect(profiles.row(profile)).toContainText("required");
  await expect(profiles.row(profile).getByRole("cell").nth(3)).toHaveText(/^0/);

  // The form follows the schema; a wrong value and a missing required one are named next to their fields.
  const groups = new GroupsPage(page);
  await groups.goto(profile);
  const id = `acme-${tag}`;
  const form = await groups.openNew(profile);
  await form.getByLabel("Id").fill(id);
  await form.getByLabel("size").fill("many");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByText("Check the marked fields.")).toBeVisible();
  await expect(form.getByLabel("size")).toHaveAccessibleDescription(/must be a number/);
  await expect(form.getByLabel("title")).toHaveAccessibleDescription(/required attribute is missing/);
  // Every field refused in one pass; the cursor on the first of them.
  await expect(form.getByLabel("title")).toBeFocused();
  await form.getByLabel("title").fill("Acme");
  await form.getByLabel("size").fill("12");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Group ${id} created.` })).toBeVisible();
  await expect(groups.row(id)).toContainText("Acme");
  // The id filter keeps the groups whose id starts with what is typed.
  await page.getByRole("searchbox", { name: "Filter by id" }).fill(`zz-${tag}`);
  await expect(page.getByText("No groups match.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Filter by id" }).fill(`acme-`);
  await expect(page).toHaveURL(/prefix=acme-/);
  await expect(groups.row(id)).toBeVisible();

  // Two members found by their surname; one removed again.
  await groups.row(id).getByRole("link", { name: id }).click();
  // The group is called by its title attribute, its id underneath.
  await expect(page.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
  await expect(page.getByText(`Group ${id}`, { exact: true })).toBeVisible();
  await groups.addMember(familyName.toLowerCase(), anna);
  // A member is not offered again.
  const picker = page.getByRole("region", { name: "Add a member" });
  await expect(picker.getByRole("button", { name: new RegExp(anna) })).toHaveCount(0);
  await expect(picker.getByRole("button", { name: new RegExp(boris) })).toBeVisible();
  await groups.addMember(familyName.toLowerCase(), boris);
  await expect(picker.getByText("Nothing matches.")).toBeVisible();
  // Members by name, the name the link; the id stays beside it.
  await expect(groups.members().getByRole("link")).toHaveText([`Anna ${familyName}`, `Boris ${familyName}`]);
  await expect(groups.members()).toContainText(boris);
  await groups.members().getByRole("button", { name: `Remove Boris ${familyName}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${boris} from ${id}?` });
  await confirm.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(groups.members().getByRole("link")).toHaveText([`Anna ${familyName}`]);
  await expect(page.getByRole("heading", { name: "Members (1)" })).toBeVisible();

  // An edit from a stale read is refused and says so; after a reload it goes through.
  const edit = page.getByRole("dialog", { name: `Edit ${id}` });
  await openDialog(page, page.getByRole("button", { name: "Edit", exact: true }), edit);
  const other = await page.context().newPage();
  await other.goto(`console/groups/${profile}/${id}`);
  const otherEdit = other.getByRole("dialog", { name: `Edit ${id}` });
  await openDialog(other, other.getByRole("button", { name: "Edit", exact: true }), otherEdit);
  await otherEdit.getByLabel("size").fill("13");
  await otherEdit.getByRole("button", { name: "Save" }).click();
  await expect(otherEdit).toBeHidden();
  await other.close();
  await edit.getByLabel("title").fill("Acme Ltd");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert").filter({ hasText: "changed meanwhile" })).toBeVisible();
  await edit.getByRole("button", { name: "Reload" }).click();
  await expect(edit.getByLabel("size")).toHaveValue("13");
  await edit.getByLabel("title").fill("Acme Ltd");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Group ${id} saved.` })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "Acme Ltd" })).toBeVisible();

  // A right on groups, granted to Anna on this one from the group's rights.
  const right = `manage_${tag}`;
  const defs = new RightDefinitionsPage(page);
  await defs.goto();
  await expect(await defs.fillNew({ name: right, en: "Manage the group", subjects: ["user"], objects: ["group"] })).toBeHidden();
  await page.goto(`console/groups/${profile}/${id}`);
  await page.getByRole("link", { name: "Rights on this group" }).click();
  await expect(page).toHaveURL(new RegExp(`type=grps&id=${id}&ext=${profile}`));
  const browser = new RightsBrowserPage(page);
  await browser.grant("on", { right, kind: "user", search: familyName.toLowerCase(), id: anna, tags: ["ops"] });
  await expect(browser.row("on", anna, right).getByRole("listitem")).toHaveText(["ops×"]);
  await page.goto(`console/rights?type=user&id=${anna}`);
  await expect(browser.table("of")).toContainText(`${id} (${profile})`);
  // Picked in the browser by the start of its id, the group shows the same right.
  await browser.goto();
  await browser.pick(page.getByRole("main"), "Kind of party", "group", "acme-", id);
  await expect(page).toHaveURL(new RegExp(`type=grps&id=${id}&ext=${profile}`));
  await expect(browser.row("on", anna, right).getByRole("listitem")).toHaveText(["ops×"]);

  // The profile cannot go while it has the group: the count is shown.
  await profiles.goto();
  await profiles.row(profile).getByRole("button", { name: `Delete ${profile}` }).click();
  const refused = page.getByRole("dialog", { name: `Delete the profile ${profile}?` });
  await expect(refused).toContainText("The profile still has groups: 1.");
  await refused.getByRole("button", { name: "Close" }).click();

  // The group goes, and the right on it with it.
  await groups.goto(profile);
  await groups.row(id).getByRole("button", { name: `Delete ${id}` }).click();
  const del = page.getByRole("dialog", { name: `Delete the group ${id}?` });
  await del.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(del).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Group ${id} deleted.` })).toBeVisible();
  await page.goto(`console/rights?type=user&id=${anna}`);
  await expect(page.getByText("It holds no rights.")).toBeVisible();

  // Without groups the profile can be deleted.
  await profiles.goto();
  await profiles.row(profile).getByRole("button", { name: `Delete ${profile}` }).click();
  const ok = page.getByRole("dialog", { name: `Delete the profile ${profile}?` });
  await ok.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `Profile ${profile} deleted.` })).toBeVisible();
  await expect(profiles.row(profile)).toHaveCount(0);
});

test("the groups pages pass axe in light and dark, with the forms open", async ({ page }) => {
  await signInAsAdmin(page);
  const tag = uniqueTag();
  const profile = `axe_${tag}`;
  const id = `axe-${tag}`;
  const profiles = new GroupProfilesPage(page);
  const groups = new GroupsPage(page);
  await profiles.goto();
  await profiles.create(profile, "Axe", [{ name: "title", type: "string", required: true }]);
  await groups.goto(profile);
  const form = await groups.openNew(profile);
  await form.getByLabel("Id").fill(id);
  await form.getByLabel("title").fill("Axe");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await profiles.goto();
    await expect(profiles.row(profile)).toBeVisible();
    await expectNoSeriousViolations(page, `group profiles (${colorScheme})`);
    const edit = page.getByRole("dialog", { name: `Edit ${profile}` });
    await openDialog(page, profiles.row(profile).getByRole("button", { name: `Edit ${profile}` }), edit);
    await expectNoSeriousViolations(page, `profile form (${colorScheme})`);
    await edit.getByRole("button", { name: "Cancel" }).click();
    await groups.goto(profile);
    await expect(groups.row(id)).toBeVisible();
    await expectNoSeriousViolations(page, `groups (${colorScheme})`);
    const create = await groups.openNew(profile);
    // An id that passes, so the service checks the attributes (a bad id is refused before them).
    await create.getByLabel("Id").fill(`${id}-${colorScheme}`);
    await create.getByRole("button", { name: "Create" }).click();
    await expect(create.getByLabel("title")).toHaveAccessibleDescription(/required attribute is missing/);
    await expectNoSeriousViolations(page, `group form with errors (${colorScheme})`);
    await create.getByRole("button", { name: "Cancel" }).click();
    await page.goto(`console/groups/${profile}/${id}`);
    await expect(page.getByRole("heading", { name: "Members (0)" })).toBeVisible();
    await expectNoSeriousViolations(page, `group page (${colorScheme})`);
  }
});
