import { expect, test } from "@playwright/test";
import { AttributesPage } from "./pages/attributes.page.ts";
import { openDialog, UsersPage } from "./pages/users.page.ts";
import { signInAsAdmin, uniqueClientId, uniqueTag } from "./support/admin.ts";

test("an attribute is created with field errors, offered in forms and selections, and removed", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  const attributes = new AttributesPage(page);
  await attributes.goto();
  await expect(attributes.row("email")).toContainText("built-in");
  await expect(attributes.row("email").getByRole("button", { name: "Remove email" })).toHaveCount(0);

  const name = `dept_${uniqueTag()}`;
  const form = await attributes.fillNew({ name, searchable: true, pattern: "([a-z", aliases: "department" });
  await expect(form.getByLabel("Pattern (regular expression)")).toHaveAccessibleDescription(/regular expression in RE2 syntax/);
  await form.getByLabel("Pattern (regular expression)").fill("^[A-Z]{2,8}$");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
  await expect(attributes.row(name)).toContainText("searchable");
  await expect(attributes.row(name)).toContainText("department");

  // The account forms offer it.
  const users = new UsersPage(page);
  await users.goto();
  await openDialog(page, page.getByRole("button", { name: "Create user" }), users.createDialog);
  await expect(users.createDialog.getByLabel(name)).toBeVisible();
  await users.createDialog.getByRole("button", { name: "Cancel" }).click();

  // Per client and scope, the attribute selection: a chosen subset is stored and shown again.
  await clients.goto();
  const clientId = uniqueClientId();
  await clients.create({ id: clientId, name: `E2E ${clientId}`, scopes: "idp_api_sys_users" });
  await clients.takeOneTimeSecret();
  await clients.goto();
  const edit = page.getByRole("dialog", { name: `Edit ${clientId}` });
  const openEdit = () => openDialog(page, clients.row(clientId).getByRole("button", { name: `Edit ${clientId}` }), edit);
  await openEdit();
  const scope = edit.getByRole("group", { name: "idp_api_sys_users", exact: true });
  await expect(scope.getByRole("radio", { name: "All attributes" })).toBeChecked();
  await scope.getByRole("radio", { name: "Only the chosen attributes" }).check();
  await scope.getByRole("checkbox", { name: name, exact: true }).uncheck();
  await scope.getByRole("checkbox", { name: "phone_number", exact: true }).uncheck();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await openEdit();
  await expect(scope.getByRole("radio", { name: "Only the chosen attributes" })).toBeChecked();
  await expect(scope.getByRole("checkbox", { name: "email", exact: true })).toBeChecked();
  await expect(scope.getByRole("checkbox", { name: name, exact: true })).not.toBeChecked();
  await expect(scope.getByRole("checkbox", { name: "phone_number", exact: true })).not.toBeChecked();
  await expect(edit.getByRole("group", { name: "idp_api_user", exact: true }).getByRole("radio", { name: "All attributes" })).toBeChecked();
  await edit.getByRole("button", { name: "Cancel" }).click();

  await attributes.goto();
  await attributes.remove(name);
  await expect(attributes.row(name)).toHaveCount(0);
  await expect(page.getByRole("main").getByText(`Attribute ${name} removed.`)).toBeVisible();
});
