import { expect, test, type Page } from "@playwright/test";
import { SignInPage } from "./pages/sign-in.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { ADMIN_LOGIN, expectDashboard, signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD } from "./support/portal.ts";

// Console roles on a user's page: an administrator makes someone an auditor, who then signs in to
// the console, sees their role in the header, and finds no buttons that change an account; and the
// last administrator cannot take the role from themselves (said in Russian, too).

async function checkBothSchemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${what} (${colorScheme})`);
  }
}

test("an administrator makes someone an auditor, who reads the console and changes nothing", async ({ browser, page }) => {
  const person = await createPerson(browser);
  const other = await createPerson(browser);
  await signInAsAdmin(page);
  const detail = new UserDetailPage(page);
  await detail.goto(person.sub);
  const roles = page.getByRole("region", { name: "Console roles" });
  await roles.getByLabel(/^Auditor/).check();
  await roles.getByRole("button", { name: "Save roles" }).click();
  await expect(roles.getByRole("status")).toHaveText("Roles saved.");
  await checkBothSchemes(page, "a user's page with the roles card");

  const auditor = await (await browser.newContext()).newPage();
  const signIn = new SignInPage(auditor);
  await signIn.goto();
  await signIn.signIn(person.sub, PERSON_PASSWORD);
  await expectDashboard(auditor);
  await expect(auditor.getByTestId("signed-in-role")).toHaveText("· Auditor");
  const seen = new UserDetailPage(auditor);
  await seen.goto(other.sub);
  await expect(auditor.getByRole("button", { name: "Set password" })).toHaveCount(0);
  await expect(auditor.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(auditor.getByRole("button", { name: "Require second factor" })).toHaveCount(0);
  await expect(auditor.getByRole("button", { name: "End all sessions" })).toHaveCount(0);
  await expect(auditor.getByRole("region", { name: "Second factor" })).toContainText("Second factor off");
  await expect(auditor.getByRole("region", { name: "Console roles" }).getByTestId("user-roles")).toHaveText("No console role: this person cannot use the console.");
  await checkBothSchemes(auditor, "a user's page as an auditor");

  // Taking the role away ends their console access at the next call.
  await roles.getByLabel(/^Auditor/).uncheck();
  await roles.getByRole("button", { name: "Save roles" }).click();
  await expect(roles.getByRole("status")).toHaveText("Roles saved.");
  await auditor.reload();
  await expect(auditor).toHaveURL(/\/console\/sign-in/);
});

test("the last administrator cannot remove their own role (ru)", async ({ page }) => {
  await signInAsAdmin(page);
  await page.context().addCookies([{ name: "idp_lang", value: "ru", domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);
  await page.goto("console/users");
  await page.getByRole("searchbox").fill(ADMIN_LOGIN);
  // Clicked until it takes: the list may still be settling on the search when the link first shows.
  const link = page.getByRole("row").filter({ has: page.getByRole("cell", { name: ADMIN_LOGIN, exact: true }) }).getByRole("link").first();
  await expect(async () => {
    await link.click();
    await expect(page).toHaveURL(/\/console\/users\/[\w-]+$/, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  const roles = page.getByRole("region", { name: "Роли в консоли" });
  await roles.getByLabel(/^Администратор/).uncheck();
  await roles.getByRole("button", { name: "Сохранить роли" }).click();
  await expect(roles.getByRole("alert")).toHaveText("В сервисе должен оставаться хотя бы один администратор: сначала выдайте роль кому-нибудь ещё.");
  await checkBothSchemes(page, "the roles card refusing the last administrator (ru)");
  await page.reload();
  await expect(page.getByRole("region", { name: "Роли в консоли" }).getByLabel(/^Администратор/)).toBeChecked();
});
