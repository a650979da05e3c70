import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { UsersPage } from "./pages/users.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// Bulk actions on a filtered selection: search, select the page, lock with a confirmation that names
// the count, the rows then say Locked; the selection exported as CSV; the page size kept in the URL.

test("an administrator locks a filtered selection of accounts at once and exports it", async ({ page }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();
  const tag = uniqueTag();
  const surname = `Bulk${tag}`;
  const people = ["ada", "bob", "cyd"].map((n) => ({ sub: `${n}-${tag}`, familyName: surname, givenName: n }));
  for (const p of people) await users.create(p);

  await users.searchFor(surname.toLowerCase());
  await expect(users.range).toHaveText("1–3 of 3");
  await page.getByRole("checkbox", { name: "Select every account on this page" }).check();
  for (const p of people) await expect(page.getByRole("checkbox", { name: `Select ${p.sub}` })).toBeChecked();
  const bar = page.getByRole("region", { name: "3 selected" });
  await expect(bar).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the users list with a selection");

  // The selection as a CSV file.
  const [download] = await Promise.all([page.waitForEvent("download"), bar.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("users.csv");
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toMatch(/^sub,login,family_name,given_name/);
  for (const p of people) expect(csv).toContain(`${p.sub},,${surname},${p.givenName},`);

  await page.getByRole("checkbox", { name: `Select ${people[2]!.sub}` }).uncheck();
  await page.getByRole("region", { name: "2 selected" }).getByRole("button", { name: "Lock", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Lock 2 accounts?" });
  await expect(confirm).toContainText("their sessions and tokens end");
  await expectNoSeriousViolationsInBothSchemes(page, "the bulk lock confirmation");
  await confirm.getByRole("button", { name: "Lock 2 accounts" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Done for 2 accounts." })).toBeVisible();
  await expect(users.row(people[0]!.sub)).toContainText("Locked");
  await expect(users.row(people[1]!.sub)).toContainText("Locked");
  await expect(users.row(people[2]!.sub)).toContainText("Active");
  await expect(page.getByRole("checkbox", { name: `Select ${people[0]!.sub}` })).not.toBeChecked();

  // Page size: in the URL, kept over a reload.
  await page.getByLabel("Rows per page").selectOption("50");
  await expect(page).toHaveURL(/[?&]size=50/);
  await page.reload();
  await expect(page.getByLabel("Rows per page")).toHaveValue("50");
  await expect(users.range).toHaveText("1–3 of 3");
});

test("the same bulk lock in Russian: the selection, the confirmation naming the count, the result", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();
  const tag = uniqueTag();
  const surname = `Блок${tag}`;
  const people = ["ада", "боб"].map((n) => ({ sub: `ru-${n.length}${n.charCodeAt(0)}-${tag}`, familyName: surname, givenName: n }));
  for (const p of people) await users.create(p);

  await page.context().addCookies([{ name: "idp_lang", value: "ru", url: baseURL! }]);
  await page.goto(`console/users?q=${encodeURIComponent(surname.toLowerCase())}`);
  await page.getByRole("checkbox", { name: "Выбрать все учётные записи на странице" }).check();
  const bar = page.getByRole("region", { name: "Выбрано: 2" });
  await bar.getByRole("button", { name: "Заблокировать", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Заблокировать учётные записи (2)?" });
  await expect(confirm).toContainText("сессии и токены завершаются");
  await expectNoSeriousViolationsInBothSchemes(page, "the bulk lock confirmation (ru)");
  await confirm.getByRole("button", { name: "Заблокировать (2)" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Выполнено для учётных записей: 2." })).toBeVisible();
  for (const p of people) await expect(page.getByRole("row").filter({ hasText: p.sub })).toContainText("Заблокирован");
});
