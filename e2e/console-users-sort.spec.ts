import { expect, test } from "@playwright/test";
import { UsersPage } from "./pages/users.page.ts";
import { consoleClientToken, signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// The users list sorts by a column: the header is a button inside the <th>, which says its state in
// aria-sort; the order lives in the URL (a reload keeps it); accounts without an e-mail come last
// either way; the words are the console's language.

test("the users list sorts by e-mail both ways, from the header, in English and Russian", async ({ page, request, baseURL }) => {
  const clients = await signInAsAdmin(page);
  const token = await consoleClientToken(clients, request, ["idp_api_sys_users_reg"]);
  const tag = uniqueTag();
  // Subjects in one order, e-mails in another, one account without an e-mail.
  const people = [
    { sub: `s1-${tag}`, email: `c.${tag}@example.org` },
    { sub: `s2-${tag}`, email: `a.${tag}@example.org` },
    { sub: `s3-${tag}` },
    { sub: `s4-${tag}`, email: `b.${tag}@example.org` },
  ];
  for (const p of people) {
    const attrs = { sub: p.sub, family_name: `Sorter ${tag}`, ...(p.email ? { email: { value: p.email, verified: true } } : {}) };
    const r = await request.put("reg/api/v3/users", { headers: { authorization: `Bearer ${token}` }, data: { user: { attrs } } });
    expect(r.status(), await r.text()).toBe(200);
  }
  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(tag);
  // The one table of the page, by role alone: its name changes with the language.
  const table = page.getByRole("table");
  const subs = table.locator("tbody tr td:nth-child(2)");
  await expect(subs).toHaveText([`s1-${tag}`, `s2-${tag}`, `s3-${tag}`, `s4-${tag}`]);

  const header = (name: string) => table.getByRole("columnheader", { name });
  await expect(header("Subject")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("E-mail")).toHaveAttribute("aria-sort", "none");
  // Phone and roles do not sort: no button, no aria-sort.
  await expect(header("Phone").getByRole("button")).toHaveCount(0);
  await expect(header("Phone")).not.toHaveAttribute("aria-sort");

  await header("E-mail").getByRole("button", { name: "E-mail" }).click();
  await expect(page).toHaveURL(/[?&]sort=email(&|$)/);
  await expect(header("E-mail")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("Subject")).toHaveAttribute("aria-sort", "none");
  await expect(subs).toHaveText([`s2-${tag}`, `s4-${tag}`, `s1-${tag}`, `s3-${tag}`]);

  // From the keyboard: the header button takes Enter, and the order turns round; no e-mail stays last.
  const button = header("E-mail").getByRole("button");
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]dir=desc(&|$)/);
  await expect(header("E-mail")).toHaveAttribute("aria-sort", "descending");
  await expect(subs).toHaveText([`s1-${tag}`, `s4-${tag}`, `s2-${tag}`, `s3-${tag}`]);
  await expectNoSeriousViolationsInBothSchemes(page, "the users list sorted by e-mail");

  // A reload keeps the order and the search; Back returns to the ascending order.
  await page.reload();
  await expect(header("E-mail")).toHaveAttribute("aria-sort", "descending");
  await expect(subs).toHaveText([`s1-${tag}`, `s4-${tag}`, `s2-${tag}`, `s3-${tag}`]);
  await page.goBack();
  await expect(header("E-mail")).toHaveAttribute("aria-sort", "ascending");

  // In Russian: the same order, its words.
  await page.context().addCookies([{ name: "idp_lang", value: "ru", url: baseURL! }]);
  await page.reload();
  await expect(header("Почта")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("Почта").getByRole("button")).toHaveAttribute("title", "Сортировать по убыванию");
  await header("Создан").getByRole("button", { name: "Создан" }).click();
  await expect(page).toHaveURL(/[?&]sort=created(&|$)/);
  await expect(header("Создан")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("Почта")).toHaveAttribute("aria-sort", "none");
  await expect(subs).toHaveText([`s1-${tag}`, `s2-${tag}`, `s3-${tag}`, `s4-${tag}`]);
});

test("an order the address names but the list does not know falls back to the default", async ({ page }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await page.goto("console/users?sort=password_hash&dir=sideways");
  await users.expectShown();
  await expect(users.table.getByRole("columnheader", { name: "Subject" })).toHaveAttribute("aria-sort", "ascending");
  await expect(users.range).toBeVisible();
});
