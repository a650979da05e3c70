import { expect, test, type Page } from "@playwright/test";
import { ConsentPage } from "./pages/consent.page.ts";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { mailTo } from "./support/mail.ts";
import { authorizePath, createRelyingParty, type TRelyingParty } from "./support/relying-party.ts";

// "Forgot password?" from an application's sign-in, as a person does it: the code from the e-mail
// that arrived at the run's SMTP server, a wrong code told in words, the new password under the
// policy, then signed in and sent on; the old password no longer signs in. Every page passes axe
// in both colour schemes.

const WORDS = {
  en: { forgot: "Forgot password?", title: "Reset your password", address: "E-mail or phone", send: "Send code", code: "Code", go: "Continue", wrong: "The code is wrong. Tries left: 2.", newTitle: "Set a new password", password: "New password", repeat: "New password again", save: "Save and sign in", subject: "Your password reset code", badLogin: "Wrong username or password." },
  ru: { forgot: "Забыли пароль?", title: "Восстановление пароля", address: "E-mail или телефон", send: "Отправить код", code: "Код", go: "Продолжить", wrong: "Код неверен. Осталось попыток: 2.", newTitle: "Новый пароль", password: "Новый пароль", repeat: "Новый пароль ещё раз", save: "Сохранить и войти", subject: "Код для восстановления доступа", badLogin: "Неверный логин или пароль." },
};

const OLD_PASSWORD = "an e2e passphrase forgotten";
const NEW_PASSWORD = "an e2e passphrase chosen anew";
let rp: TRelyingParty;
const people = { en: { sub: `rec-en-${uniqueTag()}`, email: `rec.en.${uniqueTag()}@example.org` }, ru: { sub: `rec-ru-${uniqueTag()}`, email: `rec.ru.${uniqueTag()}@example.org` } };

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  rp = await createRelyingParty(await signInAsAdmin(page));
  const users = new UsersPage(page);
  await users.goto();
  for (const p of Object.values(people)) await users.create({ sub: p.sub, familyName: "Забывчивая", givenName: "Вера", email: p.email, emailConfirmed: true, password: OLD_PASSWORD });
  await page.close();
});

/** axe on the page as it is, light and dark. */
async function checkBothSchemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${what} (${colorScheme})`);
  }
}

for (const lang of ["en", "ru"] as TLang[]) {
  test(`a person resets a forgotten password with the code from their e-mail and is signed in (${lang})`, async ({ page }) => {
    const w = WORDS[lang];
    const person = people[lang];
    const main = page.getByRole("main");
    await page.goto(authorizePath(rp, { ui_locales: lang }));
    await new LoginPage(page, lang).expectShown();
    await page.getByRole("link", { name: w.forgot }).click();

    await expect(page).toHaveURL(/\/login\/recover\?flow=/);
    await expect(page.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    await expect(page.getByLabel(w.address)).toBeFocused();
    await checkBothSchemes(page, `the recovery page (${lang})`);
    await page.getByLabel(w.address).fill(person.email.toUpperCase());
    await page.getByRole("button", { name: w.send }).click();

    await expect(page).toHaveURL(/\/login\/recover\/code\?flow=/);
    await expect(main).toContainText(person.email);
    await checkBothSchemes(page, `the recovery code page (${lang})`);
    await expect.poll(() => mailTo(person.email).filter((m) => m.subject === w.subject).length).toBe(1);
    const code = /\b(\d{6})\b/.exec(mailTo(person.email).find((m) => m.subject === w.subject)!.text)![1]!;

    await page.getByLabel(w.code, { exact: true }).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: w.go }).click();
    await expect(main.getByRole("alert")).toHaveText(w.wrong);
    await expect(page.getByLabel(w.code, { exact: true })).toHaveAttribute("aria-invalid", "true");
    await checkBothSchemes(page, `the recovery code page with a refusal (${lang})`);
    await page.getByLabel(w.code, { exact: true }).fill(code);
    await page.getByRole("button", { name: w.go }).click();

    await expect(page).toHaveURL(/\/login\/recover\/password\?flow=/);
    await expect(page.getByRole("heading", { name: w.newTitle, level: 1 })).toBeVisible();
    await page.getByLabel(w.password, { exact: true }).fill("short");
    await page.getByLabel(w.repeat).fill("short");
    await page.getByRole("button", { name: w.save }).click();
    await expect(main.getByRole("alert")).toBeVisible();
    await checkBothSchemes(page, `the new password page with a refusal (${lang})`);
    await page.getByLabel(w.password, { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel(w.repeat).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: w.save }).click();

    // Signed in: on to the application's consent, then back to it with a code.
    const consent = new ConsentPage(page, lang);
    await consent.expectShown();
    await consent.allow.click();
    await expect(page).toHaveURL(/e2e-callback\?code=/);

    // In a new browser, the old password is refused and the new one signs in.
    const other = await page.context().browser()!.newPage();
    const login = new LoginPage(other, lang);
    await other.goto(authorizePath(rp, { ui_locales: lang }));
    await login.signIn(person.sub, OLD_PASSWORD);
    await expect(login.error).toHaveText(w.badLogin);
    await login.signIn(person.sub, NEW_PASSWORD);
    await expect(other).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    await other.close();
  });
}
