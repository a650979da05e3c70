import { expect, test } from "@playwright/test";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { CodesPage, RegisterPage } from "./pages/register.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { codeFromMail } from "./support/mail.ts";
import { virtualAuthenticator, withoutAutofill } from "./support/passkeys.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// Signing up without a password, in both languages: from an application's sign-in page, the sign-up
// form's "with a passkey instead", the e-mail code from the run's SMTP server, then Chromium's virtual
// authenticator creates the passkey and the application gets its code; the passkey alone signs in
// again later. Axe on the passkey step, light and dark.

const WORDS = {
  en: { withPasskey: "Create account with a passkey instead (no password)", title: "Create your passkey", button: "Create a passkey", signIn: "Sign in with a passkey" },
  ru: { withPasskey: "Зарегистрироваться с ключом входа (без пароля)", title: "Создайте ключ входа", button: "Создать ключ входа", signIn: "Войти по ключу входа" },
};

for (const lang of ["en", "ru"] as TLang[]) {
  test(`a person signs up with a passkey and no password, and signs in with it again (${lang})`, async ({ browser, page }) => {
    const w = WORDS[lang];
    const rp = await createRelyingParty(await signInAsAdmin(page));
    const person = await (await browser.newContext()).newPage();
    await withoutAutofill(person);
    const device = await virtualAuthenticator(person);
    await person.goto(authorizePath(rp, { ui_locales: lang }));
    const login = new LoginPage(person, lang);
    await login.expectShown();
    await login.registerLink.click();
    const register = new RegisterPage(person, lang);
    await register.expectShown();
    const email = `passkey-signup-${lang}-${uniqueTag()}@example.org`;
    await register.field("given").fill("Ада");
    await register.field("email").fill(email);
    await person.getByRole("button", { name: w.withPasskey }).click();

    const codes = new CodesPage(person, lang);
    await codes.expectShown();
    await codes.enter("email", await codeFromMail(email));
    await expect(person).toHaveURL(/\/register\/passkey\?signup=/);
    await expect(person.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    await expect(person.getByRole("button", { name: w.button })).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(person, `the sign-up's passkey step (${lang})`);
    await person.getByRole("button", { name: w.button }).click();
    await expect(person).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    expect(await device.credentials()).toHaveLength(1);

    // Signed out (a new browser session with the same device), the passkey alone signs in again.
    await person.context().clearCookies();
    await person.goto(authorizePath(rp, { ui_locales: lang }));
    await login.expectShown();
    await person.getByRole("button", { name: w.signIn }).click();
    await expect(person).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    await person.context().close();
  });
}
