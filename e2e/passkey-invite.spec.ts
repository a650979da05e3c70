import { expect, test } from "@playwright/test";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { signInAsAdmin, uniqueTag, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { mailTo } from "./support/mail.ts";
import { virtualAuthenticator, withoutAutofill } from "./support/passkeys.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// A passwordless account from the console, in both languages: an administrator creates an account
// with no password, sends it a link that enrols a passkey, and the person, in a browser with a
// passkey-capable authenticator (Chromium's virtual one), creates the passkey from the link read off
// the run's SMTP server, then signs in to an application with it. Axe on the pages, light and dark.

const WORDS = {
  en: { send: "Send recovery message…", dialog: "Send a recovery message", purpose: "The link lets them", language: "Language of the message", submit: "Send", sent: /A recovery message was sent to/, subject: "Create a passkey for your account", title: "Create a passkey", button: "Create a passkey", done: "Your passkey is created.", signIn: "Sign in with a passkey", spent: "This link has expired or was used already" },
  ru: { send: "Отправить ссылку для восстановления…", dialog: "Отправить ссылку для восстановления", purpose: "По ссылке можно", language: "Язык сообщения", submit: "Отправить", sent: /Ссылка для восстановления отправлена на/, subject: "Создайте ключ входа", title: "Создайте ключ входа", button: "Создать ключ входа", done: "Ключ входа создан.", signIn: "Войти по ключу входа", spent: "Срок действия ссылки истёк" },
};

for (const lang of ["en", "ru"] as TLang[]) {
  test(`an administrator invites a person without a password to create a passkey, which then signs them in (${lang})`, async ({ browser, page }) => {
    const w = WORDS[lang];
    const rp = await createRelyingParty(await signInAsAdmin(page));
    const sub = `keyonly-${lang}-${uniqueTag()}`;
    const email = `${sub}@example.org`;
    const users = new UsersPage(page);
    await users.goto();
    await users.create({ sub, familyName: "Беспарольная", email, emailConfirmed: true });

    await useConsoleLanguage(page, lang);
    await page.goto(`console/users/${encodeURIComponent(sub)}`);
    await page.getByRole("button", { name: w.send }).click();
    const dialog = page.getByRole("dialog", { name: w.dialog });
    await dialog.getByLabel(w.purpose).selectOption("passkey");
    await dialog.getByLabel(w.language).selectOption(lang);
    await expectNoSeriousViolationsInBothSchemes(page, `the send recovery message dialog for a passkey (${lang})`);
    await dialog.getByRole("button", { name: w.submit }).click();
    await expect(page.getByRole("main").getByText(w.sent)).toBeVisible();
    await expect.poll(() => mailTo(email).filter((m) => m.subject === w.subject).length).toBe(1);
    const link = /(https?:\/\/\S+\/login\/recover\/link\?\S+)/.exec(mailTo(email).find((m) => m.subject === w.subject)!.text)![1]!;

    // The person, in a browser of their own with a passkey-capable device.
    const person = await (await browser.newContext()).newPage();
    await withoutAutofill(person);
    const device = await virtualAuthenticator(person);
    await person.goto(link);
    await expect(person.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    const create = person.getByRole("button", { name: w.button });
    await expect(create).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(person, `the passkey link page (${lang})`);
    await create.click();
    await expect(person.getByRole("status")).toContainText(w.done);
    await expectNoSeriousViolationsInBothSchemes(person, `the passkey link page, done (${lang})`);
    expect(await device.credentials()).toHaveLength(1);

    // The link works once.
    expect((await person.goto(link))?.status()).toBe(410);
    await expect(person.getByRole("alert")).toContainText(w.spent);

    // An application's sign-in: the passkey alone signs the person in, nothing typed.
    await person.goto(authorizePath(rp, { ui_locales: lang }));
    await new LoginPage(person, lang).expectShown();
    await person.getByRole("button", { name: w.signIn }).click();
    await expect(person).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    await person.context().close();
  });
}
