import { expect, test } from "@playwright/test";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { openDialog, UsersPage } from "./pages/users.page.ts";
import { ADMIN_LOGIN, consoleClientToken, signInAsAdmin, uniqueTag, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";


test("console user search, edit and lock", async ({ page }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();

  // Subjects and e-mails carry one tag, surnames another, so a surname search cannot match a subject.
  const tag = uniqueTag();
  const surname = uniqueTag();
  const capital = surname[0]!.toUpperCase() + surname.slice(1);
  const anna = { sub: `anna-${tag}`, familyName: `${capital}ova`, givenName: "Anna", email: `anna.${tag}@example.org` };
  const boris = { sub: `boris-${tag}`, familyName: `${capital}ov`, givenName: "Boris", phone: "+7 (912) 000-11-22" };
  const vera = { sub: `vera-${tag}`, familyName: "Smirnova", givenName: "Vera", email: `vera.${tag}@example.org`, emailConfirmed: true };

  // The server's field errors appear next to the field; fixing the field creates the account.
  await users.fillCreate({ ...anna, email: "not-an-email" });
  await expect(users.createDialog.getByLabel("E-mail", { exact: true })).toHaveAccessibleDescription(/must be an e-mail address/);
  await expect(users.createDialog.getByLabel("E-mail", { exact: true })).toBeFocused();
  await users.createDialog.getByLabel("E-mail", { exact: true }).fill(anna.email);
  await users.createDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(users.createDialog).toBeHidden();
  await users.create(boris);
  await users.create(vera);

  // A surname prefix finds both, case-insensitively; the total is shown.
  await users.searchFor(capital.slice(0, 5).toLowerCase());
  await expect(users.row(anna.sub)).toBeVisible();
  await expect(users.row(boris.sub)).toBeVisible();
  await expect(users.row(vera.sub)).toHaveCount(0);
  await expect(users.range).toHaveText("1–2 of 2");

  // The search lives in the URL: a reload shows the same result.
  await page.reload();
  await expect(users.search).toHaveValue(capital.slice(0, 5).toLowerCase());
  await expect(users.row(anna.sub)).toBeVisible();

  // By e-mail: one account, with its confirmation shown.
  await users.searchFor(vera.email);
  await expect(users.table.getByRole("row")).toHaveCount(2);
  await expect(users.row(vera.sub)).toContainText("confirmed");
  await expect(users.row(vera.sub)).not.toContainText("not confirmed");

  // Open Anna, change an attribute, lock her.
  await users.searchFor(tag);
  await users.open(anna.sub);
  const detail = new UserDetailPage(page);
  await detail.expectShown(anna.sub);
  await detail.field("Given name").fill("Anya");
  await detail.save();
  await expect(detail.text("Saved.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Anya ${anna.familyName}`);
  await detail.lock();
  await expect(detail.text("Locked")).toBeVisible();

  // Back returns to the same search, which now shows her locked and renamed.
  await page.goBack();
  await users.expectShown();
  await expect(users.search).toHaveValue(tag);
  await expect(users.row(anna.sub)).toContainText("Locked");
  await expect(users.row(anna.sub)).toContainText("Anya");
  await expect(users.row(boris.sub)).toContainText("Active");

  // Delete Boris.
  await users.open(boris.sub);
  await detail.expectShown(boris.sub);
  await detail.delete(boris.sub);
  await users.expectShown();
  await users.searchFor(boris.sub);
  await expect(page.getByText(`No users match “${boris.sub}”.`)).toBeVisible();
});

test("an edit made from a stale page is refused and the page reloads", async ({ page, browser }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();
  const tag = uniqueTag();
  const sub = `stale-${tag}`;
  await users.create({ sub, familyName: "Stale", givenName: "First" });

  // A second administrator session changes the account after this page has read it.
  const detail = new UserDetailPage(page);
  await page.goto(`console/users/${sub}`);
  await detail.expectShown(sub);
  const other = await browser.newPage();
  await signInAsAdmin(other);
  const otherDetail = new UserDetailPage(other);
  await other.goto(`console/users/${sub}`);
  await otherDetail.expectShown(sub);
  await otherDetail.field("Given name").fill("Second");
  await otherDetail.save();
  await expect(otherDetail.text("Saved.")).toBeVisible();
  await other.close();

  await detail.field("Family name").fill("Mine");
  await detail.save();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Someone else changed this user meanwhile");
  await expect(detail.field("Given name")).toHaveValue("Second");
  await expect(detail.field("Family name")).toHaveValue("Stale");
});

test("users are paged with the cursor in the URL", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const token = await consoleClientToken(clients, request, ["idp_api_sys_users_reg"]);
  const tag = uniqueTag();
  // 27 accounts through the registration API: more than one page of 25, without 27 dialogs.
  for (let i = 1; i <= 27; i++) {
    const sub = `p${String(i).padStart(2, "0")}-${tag}`;
    const r = await request.put("reg/api/v3/users", { headers: { authorization: `Bearer ${token}` }, data: { user: { attrs: { sub, family_name: `Pager ${tag}` } } } });
    expect(r.status(), await r.text()).toBe(200);
  }

  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(tag);
  await expect(users.range).toHaveText("1–25 of 27");
  await expect(users.table.getByRole("row")).toHaveCount(26);
  const prev = page.getByRole("button", { name: "Previous page" });
  const next = page.getByRole("button", { name: "Next page" });
  await expect(prev).toBeDisabled();

  await next.click();
  await expect(page).toHaveURL(new RegExp(`after=p25-${tag}`));
  await expect(users.range).toHaveText("26–27 of 27");
  await expect(users.row(`p27-${tag}`)).toBeVisible();
  await expect(users.row(`p01-${tag}`)).toHaveCount(0);
  await expect(next).toBeDisabled();

  await page.reload();
  await expect(users.range).toHaveText("26–27 of 27");
  await expect(users.search).toHaveValue(tag);

  await page.goBack();
  await expect(users.range).toHaveText("1–25 of 27");
  await expect(users.row(`p01-${tag}`)).toBeVisible();
  await next.click();
  await prev.click();
  await expect(users.range).toHaveText("1–25 of 27");
});

test("the administrator finds their own account by its login, and cannot lock or delete it there", async ({ page }) => {
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(ADMIN_LOGIN);
  // The login has a column of its own (the third, after the checkbox and the subject); the bootstrap administrator has no other attribute.
  const own = users.table.getByRole("row").filter({ has: page.locator("td:nth-child(3) code", { hasText: new RegExp(`^${ADMIN_LOGIN}$`) }) });
  await expect(own).toHaveCount(1);
  await own.getByRole("link").click();
  await expect(page.getByText("This is your own account: you are signed in to the console with it, so it cannot be locked or deleted here.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Lock", exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete user" })).toHaveCount(0);
  // In Russian as well (the language toggle's cookie, set directly).
  await page.context().addCookies([{ name: "idp_lang", value: "ru", domain: new URL(page.url()).hostname, path: "/" }]);
  await page.reload();
  await expect(page.getByText("Это ваша учётная запись: вы вошли с ней в консоль")).toBeVisible();
  await expect(page.getByRole("button", { name: "Заблокировать", exact: true })).toHaveCount(0);
});

const PASSWORD_WORDS = {
  en: { dialog: (sub: string) => `Set a password for ${sub}`, setPassword: "Set password", field: "New password", mustChange: "Ask for a new password at the next sign-in", done: "The password is set; the user chooses their own at the next sign-in.", badLogin: "Wrong username or password.", title: "Set a new password", repeat: "New password again", save: "Save and continue" },
  ru: { dialog: (sub: string) => `Пароль для ${sub}`, setPassword: "Задать пароль", field: "Новый пароль", mustChange: "Попросить сменить пароль при следующем входе", done: "Пароль задан; при следующем входе пользователь выберет свой.", badLogin: "Неверный логин или пароль.", title: "Новый пароль", repeat: "Новый пароль ещё раз", save: "Сохранить и продолжить" },
};

for (const lang of ["en", "ru"] as TLang[]) {
  test(`an administrator sets a person's password; the person must choose their own at the next sign-in (${lang})`, async ({ page, browser }) => {
    const w = PASSWORD_WORDS[lang];
    const rp = await createRelyingParty(await signInAsAdmin(page));
    const users = new UsersPage(page);
    await users.goto();
    const sub = `reset-${uniqueTag()}`;
    await users.create({ sub, familyName: "Reset", password: "the first passphrase of this person" });
    await useConsoleLanguage(page, lang);
    await page.goto(`console/users/${encodeURIComponent(sub)}`);
    const dialog = page.getByRole("dialog", { name: w.dialog(sub) });
    await openDialog(page, page.getByRole("button", { name: w.setPassword }), dialog);
    const field = dialog.getByLabel(w.field, { exact: true });
    // The policy's refusal is told at the field; nothing changes.
    await field.fill("short");
    await dialog.getByRole("button", { name: w.setPassword }).click();
    await expect(field).toHaveAccessibleDescription(/\S/);
    await expect(dialog.getByLabel(w.mustChange)).toBeChecked();
    await expectNoSeriousViolationsInBothSchemes(page, `the set password dialog with a refusal (${lang})`);
    await field.fill("a passphrase the administrator chose");
    await dialog.getByRole("button", { name: w.setPassword }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("main").getByText(w.done)).toBeVisible();

    // The person, in a browser of their own, from an application: the old password no longer
    // works, the new one asks for their own, and then the application gets its code.
    const context = await browser.newContext();
    const person = await context.newPage();
    await person.goto(authorizePath(rp, { ui_locales: lang }));
    const login = new LoginPage(person, lang);
    // Once, not per language: every browser of the e2e run shares one address, and each wrong
    // password stays on its counter (20, then a lockout) for the rest of the run.
    if (lang === "en") {
      await login.signIn(sub, "the first passphrase of this person");
      await expect(login.error).toHaveText(w.badLogin);
    }
    await login.signIn(sub, "a passphrase the administrator chose");
    await expect(person.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(person, `the must-change password page (${lang})`);
    await person.getByLabel(w.field, { exact: true }).fill("the person's own new passphrase");
    await person.getByLabel(w.repeat).fill("the person's own new passphrase");
    await person.getByRole("button", { name: w.save }).click();
    await expect(person).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    await context.close();
  });
}
