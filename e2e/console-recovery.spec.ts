import { expect, test } from "@playwright/test";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { signInAsAdmin, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { mailTo } from "./support/mail.ts";
import { createPerson, PERSON_PASSWORD } from "./support/portal.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// "Send recovery message…" on a user's page: the person gets a link at their confirmed e-mail (read
// from the run's SMTP server), sets a new password on the page it opens (in the message's language,
// which the administrator picks apart from the console's), and signs in with it; the link does not
// work twice. In both languages, axe in both colour schemes.


const NEW_PASSWORD = "a passphrase set from the link";

const CONSOLE = {
  en: { send: "Send recovery message…", dialog: "Send a recovery message", to: "Send to", language: "Language of the message", submit: "Send", sent: /A recovery message was sent to p\*\*\*@example\.org/ },
  ru: { send: "Отправить ссылку для восстановления…", dialog: "Отправить ссылку для восстановления", to: "Куда отправить", language: "Язык сообщения", submit: "Отправить", sent: /Ссылка для восстановления отправлена на p\*\*\*@example\.org/ },
};
const MESSAGE = {
  en: { subject: "Set a new password for your account", title: "Set a new password", password: "New password", repeat: "New password again", save: "Save the password", mismatch: "The two passwords differ", done: "Your new password is saved. Sign in with it.", spent: "This link has expired or was used already", badLogin: "Wrong username or password." },
  ru: { subject: "Восстановление доступа к учётной записи", title: "Новый пароль", password: "Новый пароль", repeat: "Новый пароль ещё раз", save: "Сохранить пароль", mismatch: "Пароли не совпадают", done: "Новый пароль сохранён. Войдите с ним.", spent: "Срок действия ссылки истёк", badLogin: "Неверный логин или пароль." },
};

for (const [lang, messageLang] of [["en", "ru"], ["ru", "en"]] as [TLang, TLang][]) {
  test(`an administrator sends a recovery message; the person sets a new password from its link and signs in (console ${lang}, message ${messageLang})`, async ({ browser, page }) => {
    const c = CONSOLE[lang];
    const m = MESSAGE[messageLang];
    const person = await createPerson(browser);
    const rp = await createRelyingParty(await signInAsAdmin(page));
    await useConsoleLanguage(page, lang);
    await page.goto(`console/users/${encodeURIComponent(person.sub)}`);
    await page.getByRole("button", { name: c.send }).click();
    const dialog = page.getByRole("dialog", { name: c.dialog });
    await expect(dialog.getByLabel(c.to)).toHaveValue("email");
    await dialog.getByLabel(c.language).selectOption(messageLang);
    await expectNoSeriousViolationsInBothSchemes(page, `the send recovery message dialog (${lang})`);
    await dialog.getByRole("button", { name: c.submit }).click();
    await expect(page.getByRole("main").getByText(c.sent)).toBeVisible();

    await expect.poll(() => mailTo(person.email).filter((mail) => mail.subject === m.subject).length).toBe(1);
    const link = /(https?:\/\/\S+\/login\/recover\/link\?\S+)/.exec(mailTo(person.email).find((mail) => mail.subject === m.subject)!.text)![1]!;

    const other = await (await browser.newContext()).newPage();
    await other.goto(link);
    await expect(other.getByRole("heading", { name: m.title, level: 1 })).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(other, `the recovery link page (${messageLang})`);
    await other.getByLabel(m.password, { exact: true }).fill(NEW_PASSWORD);
    await other.getByLabel(m.repeat).fill("something else entirely");
    await other.getByRole("button", { name: m.save }).click();
    await expect(other.getByRole("alert")).toContainText(m.mismatch);
    await expectNoSeriousViolationsInBothSchemes(other, `the recovery link page with a refusal (${messageLang})`);
    await other.getByLabel(m.password, { exact: true }).fill(NEW_PASSWORD);
    await other.getByLabel(m.repeat).fill(NEW_PASSWORD);
    await other.getByRole("button", { name: m.save }).click();
    await expect(other.getByRole("status")).toHaveText(m.done);

    // The old password no longer signs in (checked once); the new one does. The link does not work twice.
    await other.goto(authorizePath(rp, { ui_locales: messageLang }));
    const login = new LoginPage(other, messageLang);
    // Once, not per language: every browser of the e2e run shares one address, and each wrong
    // password stays on its counter (20, then a lockout) for the rest of the run.
    if (lang === "en") {
      await login.signIn(person.sub, PERSON_PASSWORD);
      await expect(login.error).toHaveText(m.badLogin);
    }
    await login.signIn(person.sub, NEW_PASSWORD);
    await expect(other).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    const used = await other.goto(link);
    expect(used?.status()).toBe(410);
    await expect(other.getByRole("alert")).toContainText(m.spent);
  });
}
