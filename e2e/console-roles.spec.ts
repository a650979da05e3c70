import { expect, test, type Page } from "@playwright/test";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { SignInPage } from "./pages/sign-in.page.ts";
import { ADMIN_LOGIN, signInAsAdmin, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD } from "./support/portal.ts";

// Console roles on a user's page, in both languages: an administrator makes someone an auditor,
// who then signs in to the console, sees their role in the header, and finds no buttons that
// change an account; and the last administrator cannot take the role from themselves.

const WORDS = {
  en: { attributes: "Attributes", sub: "Subject (sub)", roles: "Console roles", auditor: /^Auditor/, admin: /^Administrator/, save: "Save roles", saved: "Roles saved.", role: "· Auditor", setPassword: "Set password", delete: "Delete user", requireFactor: "Require second factor", endAll: "End all sessions", factor: "Second factor", factorOff: "Second factor off", noRole: "No console role: this person cannot use the console.", lastAdmin: "The service must keep at least one administrator: give the role to someone else first." },
  ru: { attributes: "Атрибуты", sub: "Субъект (sub)", roles: "Роли в консоли", auditor: /^Аудитор/, admin: /^Администратор/, save: "Сохранить роли", saved: "Роли сохранены.", role: "· Аудитор", setPassword: "Задать пароль", delete: "Удалить пользователя", requireFactor: "Требовать второй фактор", endAll: "Завершить все сеансы", factor: "Второй фактор", factorOff: "Второй фактор выключен", noRole: "Роли в консоли нет: пользоваться консолью этот человек не может.", lastAdmin: "В сервисе должен оставаться хотя бы один администратор: сначала выдайте роль кому-нибудь ещё." },
};


/** A user's page in the console, opened by its address; shown once its attributes form holds `sub`. */
async function openUser(page: Page, sub: string, lang: TLang): Promise<void> {
  await page.goto(`console/users/${encodeURIComponent(sub)}`);
  await expect(page.getByRole("form", { name: WORDS[lang].attributes }).getByLabel(WORDS[lang].sub)).toHaveValue(sub);
}

for (const lang of ["en", "ru"] as TLang[]) {
  const w = WORDS[lang];

  test(`an administrator makes someone an auditor, who reads the console and changes nothing (${lang})`, async ({ browser, page }) => {
    const person = await createPerson(browser);
    const other = await createPerson(browser);
    await signInAsAdmin(page);
    await useConsoleLanguage(page, lang);
    await openUser(page, person.sub, lang);
    const roles = page.getByRole("region", { name: w.roles });
    await roles.getByLabel(w.auditor).check();
    await roles.getByRole("button", { name: w.save }).click();
    await expect(roles.getByRole("status")).toHaveText(w.saved);
    await expectNoSeriousViolationsInBothSchemes(page, `a user's page with the roles card (${lang})`);

    // The auditor's console is in the same language from the start: its sign-in page sends them on
    // to the service's sign-in page in that language.
    const auditor = await (await browser.newContext()).newPage();
    await useConsoleLanguage(auditor, lang);
    await new SignInPage(auditor).goto();
    const login = new LoginPage(auditor, lang);
    await login.expectShown();
    await login.signIn(person.sub, PERSON_PASSWORD);
    await expect(auditor).toHaveURL(/\/console\/dashboard$/);
    await openUser(auditor, other.sub, lang);
    await expect(auditor.getByTestId("signed-in-role")).toHaveText(w.role);
    await expect(auditor.getByRole("button", { name: w.setPassword })).toHaveCount(0);
    await expect(auditor.getByRole("button", { name: w.delete })).toHaveCount(0);
    await expect(auditor.getByRole("button", { name: w.requireFactor })).toHaveCount(0);
    await expect(auditor.getByRole("button", { name: w.endAll })).toHaveCount(0);
    await expect(auditor.getByRole("region", { name: w.factor })).toContainText(w.factorOff);
    await expect(auditor.getByRole("region", { name: w.roles }).getByTestId("user-roles")).toHaveText(w.noRole);
    await expectNoSeriousViolationsInBothSchemes(auditor, `a user's page as an auditor (${lang})`);

    // Taking the role away ends their console access at the next call.
    await roles.getByLabel(w.auditor).uncheck();
    await roles.getByRole("button", { name: w.save }).click();
    await expect(roles.getByRole("status")).toHaveText(w.saved);
    await auditor.reload();
    await expect(auditor).toHaveURL(/\/console\/sign-in/);
  });

  test(`the last administrator cannot remove their own role (${lang})`, async ({ page }) => {
    await signInAsAdmin(page);
    await useConsoleLanguage(page, lang);
    await page.goto("console/users");
    await page.getByRole("searchbox").fill(ADMIN_LOGIN);
    // Clicked until it takes: the list may still be settling on the search when the link first shows.
    const link = page.getByRole("row").filter({ has: page.getByRole("cell", { name: ADMIN_LOGIN, exact: true }) }).getByRole("link").first();
    await expect(async () => {
      await link.click();
      await expect(page).toHaveURL(/\/console\/users\/[\w-]+$/, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    const roles = page.getByRole("region", { name: w.roles });
    await roles.getByLabel(w.admin).uncheck();
    await roles.getByRole("button", { name: w.save }).click();
    await expect(roles.getByRole("alert")).toHaveText(w.lastAdmin);
    await expectNoSeriousViolationsInBothSchemes(page, `the roles card refusing the last administrator (${lang})`);
    await page.reload();
    await expect(page.getByRole("region", { name: w.roles }).getByLabel(w.admin)).toBeChecked();
  });
}
