import { expect, test } from "@playwright/test";
import { RightDefinitionsPage, RightsBrowserPage } from "./pages/rights.page.ts";
import { openDialog, UsersPage } from "./pages/users.page.ts";
import { signInAsAdmin, uniqueClientId, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";

test("a right is defined, granted with two tags from a user to an application, seen from both sides, revoked tag by tag, and deleted in use", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  const tag = uniqueTag();
  const appId = uniqueClientId();
  await clients.goto();
  await clients.create({ id: appId, name: `Reports ${tag}`, scopes: "idp_api_sys_users" });
  await clients.takeOneTimeSecret();
  const sub = `rights-${tag}`;
  const familyName = `Pravova${tag}`;
  const users = new UsersPage(page);
  await users.goto();
  await users.create({ sub, givenName: "Rita", familyName });

  // A definition: its name must be new; then it is listed with no grants.
  const defs = new RightDefinitionsPage(page);
  await defs.goto();
  await expect(defs.row("change_password")).toContainText("built-in");
  await expect(defs.row("change_password").getByRole("button", { name: "Delete change_password" })).toHaveCount(0);
  const right = `reports_${tag}`;
  const again = await defs.fillNew({ name: "change_password", en: "Again", subjects: ["user"], objects: ["user"] });
  await expect(again.getByLabel("Name")).toHaveAccessibleDescription(/defined already/);
  await again.getByRole("button", { name: "Cancel" }).click();
  const form = await defs.fillNew({ name: right, en: "Read the reports", subjects: ["user", "application"], objects: ["user", "application"] });
  await expect(form).toBeHidden();
  await expect(defs.row(right)).toContainText("Read the reports");
  await expect(defs.row(right).getByRole("cell").nth(4)).toHaveText("0");

  // The user picked by a search on the surname; the grant goes to the application, with two tags.
  const browser = new RightsBrowserPage(page);
  await browser.goto();
  await browser.pick(page.getByRole("main"), "Kind of party", "user", familyName.toLowerCase(), sub);
  await expect(page.getByText("It holds no rights.")).toBeVisible();
  await browser.grant("of", { right, kind: "application", search: appId, id: appId, tags: ["alpha", "beta"] });
  const ofUser = browser.row("of", appId, right);
  await expect(ofUser.getByRole("listitem")).toHaveText(["alpha×", "beta×"]);
  // Both panels fit the 1280 px the console is made for (the default viewport), in Russian as well.
  const host = new URL(process.env.E2E_BASE_URL!).hostname;
  for (const lang of ["ru", "en"]) {
    await page.context().addCookies([{ name: "idp_lang", value: lang, domain: host, path: "/" }]);
    await page.reload();
    await expect(page.getByRole("table").getByText(appId, { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width (${lang})`).toBeLessThanOrEqual(page.viewportSize()!.width);
  }

  // The application's side: the user holds the right on it, with the same tags.
  await ofUser.getByRole("link", { name: appId }).click();
  await expect(page).toHaveURL(new RegExp(`type=its&id=${appId}`));
  const onApp = browser.row("on", sub, right);
  await expect(onApp.getByRole("listitem")).toHaveText(["alpha×", "beta×"]);
  await expect(browser.table("of")).toHaveCount(0);

  // One tag goes and the right stays; the last tag takes the right with it.
  await browser.revokeTag("on", sub, right, "alpha", /keeps .* through its other tags/);
  await expect(onApp.getByRole("listitem")).toHaveText(["beta×"]);
  // The account is named by its name, its id underneath.
  await expect(onApp.getByRole("link", { name: `Rita ${familyName}` })).toBeVisible();
  await onApp.getByRole("link", { name: `Rita ${familyName}` }).click();
  // The user's side shows the change too, not the tags it had when last seen.
  await expect(browser.row("of", appId, right).getByRole("listitem")).toHaveText(["beta×"]);
  await browser.revokeTag("of", appId, right, "beta", /the right goes with it/);
  await expect(page.getByText("It holds no rights.")).toBeVisible();

  // Granted again, the definition is in use: deleting it says how many grants go, and takes them.
  await browser.grant("of", { right, kind: "application", search: appId, id: appId, tags: ["gamma"] });
  await defs.goto();
  await expect(defs.row(right).getByRole("cell").nth(4)).toHaveText("1");
  await defs.row(right).getByRole("button", { name: `Delete ${right}` }).click();
  const confirm = page.getByRole("dialog", { name: `Delete the right ${right}?` });
  await expect(confirm).toContainText("Grants of this right (subject and object pairs): 1.");
  await confirm.getByRole("button", { name: "Delete with its grants (1)" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Right ${right} deleted with its grants (1).` })).toBeVisible();
  await expect(defs.row(right)).toHaveCount(0);
  await page.goto(`console/rights?type=user&id=${sub}`);
  await expect(page.getByText("It holds no rights.")).toBeVisible();
});

test("the rights pages pass axe in light and dark, with a party's panels and the grant dialog open", async ({ page }) => {
  await signInAsAdmin(page);
  const defs = new RightDefinitionsPage(page);
  const browser = new RightsBrowserPage(page);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await defs.goto();
    await expectNoSeriousViolations(page, `right definitions (${colorScheme})`);
    await page.goto("console/rights?type=user&id=e2e-qr-user");
    await expect(browser.table("of").or(page.getByText("It holds no rights."))).toBeVisible();
    await expectNoSeriousViolations(page, `rights browser (${colorScheme})`);
    const dialog = page.getByRole("dialog", { name: /^Grant a right/ });
    await openDialog(page, page.getByRole("region", { name: "Rights held on it" }).getByRole("button", { name: "Grant a right" }), dialog);
    await expect(dialog.getByLabel("Tags")).toBeVisible();
    await expectNoSeriousViolations(page, `grant dialog (${colorScheme})`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
  }
});
