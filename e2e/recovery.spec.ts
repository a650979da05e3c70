import { expect, test, type Page } from "@playwright/test";
import { ConsentPage } from "./pages/consent.page.ts";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { mailTo } from "./support/mail.ts";
import { OutboxPage } from "./pages/outbox.page.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";
import { totp, turnOnSecondFactor } from "./support/totp.ts";
import { authorizePath, createRelyingParty, type TRelyingParty } from "./support/relying-party.ts";

// "Forgot password?" from an application's sign-in, as a person does it: the code from the e-mail
// that arrived at the run's SMTP server, a wrong code told in words, the new password under the
// policy, then signed in and sent on; the old password no longer signs in. Every page passes axe
// in both colour schemes. By phone, the code is read from the console's outbox (the e2e server
// has no SMS transport); with the second factor on, the authenticator's code is asked before the
// new password.

const WORDS = {
  en: { forgot: "Forgot password?", title: "Reset your password", address: "E-mail or phone", send: "Send code", code: "Code", go: "Continue", wrong: "The code is wrong. Tries left: 2.", newTitle: "Set a new password", password: "New password", repeat: "New password again", save: "Save and sign in", subject: "Your password reset code", badLogin: "Wrong username or password.", bySms: "by SMS", otpCode: "Code from your authenticator app", otpWrong: "The code is wrong or already used. Type the current one." },
  ru: { forgot: "Забыли пароль?", title: "Восстановление пароля", address: "E-mail или телефон", send: "Отправить код", code: "Код", go: "Продолжить", wrong: "Код неверен. Осталось попыток: 2.", newTitle: "Новый пароль", password: "Новый пароль", repeat: "Новый пароль ещё раз", save: "Сохранить и войти", subject: "Код для восстановления доступа", badLogin: "Неверный логин или пароль.", bySms: "в SMS", otpCode: "Код из приложения-аутентификатора", otpWrong: "Код неверен или уже использован. Введите текущий." },
};

const OLD_PASSWORD = "an e2e passphrase forgotten";
const NEW_PASSWORD = "an e2e passphrase chosen anew";
let rp: TRelyingParty;
const people = { en: { sub: `rec-en-${uniqueTag()}`, email: `rec.en.${uniqueTag()}@example.org` }, ru: { sub: `rec-ru-${uniqueTag()}`, email: `rec.ru.${uniqueTag()}@example.org` } };
// 7 and ten digits, unique per run (the letters of the tag as digits) and per language (the last one).
const phoneOf = (last: string) => `79${[...uniqueTag()].map((c) => c.charCodeAt(0) % 10).join("")}`.padEnd(10, "0").slice(0, 10) + last;
const phonePeople = { en: { sub: `rec-sms-en-${uniqueTag()}`, phone: phoneOf("1") }, ru: { sub: `rec-sms-ru-${uniqueTag()}`, phone: phoneOf("2") } };

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  rp = await createRelyingParty(await signInAsAdmin(page));
  const users = new UsersPage(page);
  await users.goto();
  for (const p of Object.values(people)) await users.create({ sub: p.sub, familyName: "Забывчивая", givenName: "Вера", email: p.email, emailConfirmed: true, password: OLD_PASSWORD });
  for (const p of Object.values(phonePeople)) await users.create({ sub: p.sub, familyName: "Телефонова", phone: p.phone, phoneConfirmed: true, password: OLD_PASSWORD });
  await page.close();
});


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
    await expectNoSeriousViolationsInBothSchemes(page, `the recovery page (${lang})`);
    await page.getByLabel(w.address).fill(person.email.toUpperCase());
    await page.getByRole("button", { name: w.send }).click();

    await expect(page).toHaveURL(/\/login\/recover\/code\?flow=/);
    await expect(main).toContainText(person.email);
    await expectNoSeriousViolationsInBothSchemes(page, `the recovery code page (${lang})`);
    await expect.poll(() => mailTo(person.email).filter((m) => m.subject === w.subject).length).toBe(1);
    const code = /\b(\d{6})\b/.exec(mailTo(person.email).find((m) => m.subject === w.subject)!.text)![1]!;

    await page.getByLabel(w.code, { exact: true }).fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: w.go }).click();
    await expect(main.getByRole("alert")).toHaveText(w.wrong);
    await expect(page.getByLabel(w.code, { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousViolationsInBothSchemes(page, `the recovery code page with a refusal (${lang})`);
    await page.getByLabel(w.code, { exact: true }).fill(code);
    await page.getByRole("button", { name: w.go }).click();

    await expect(page).toHaveURL(/\/login\/recover\/password\?flow=/);
    await expect(page.getByRole("heading", { name: w.newTitle, level: 1 })).toBeVisible();
    await page.getByLabel(w.password, { exact: true }).fill("short");
    await page.getByLabel(w.repeat).fill("short");
    await page.getByRole("button", { name: w.save }).click();
    await expect(main.getByRole("alert")).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(page, `the new password page with a refusal (${lang})`);
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

/** From an application's sign-in in a browser without a session: "Forgot password?", the address, and on to the code page. */
async function askForCode(page: Page, lang: TLang, address: string): Promise<void> {
  await page.goto(authorizePath(rp, { ui_locales: lang }));
  await new LoginPage(page, lang).expectShown();
  await page.getByRole("link", { name: WORDS[lang].forgot }).click();
  await page.getByLabel(WORDS[lang].address).fill(address);
  await page.getByRole("button", { name: WORDS[lang].send }).click();
  await expect(page).toHaveURL(/\/login\/recover\/code\?flow=/);
}

/** On the new password page: a password under the policy, then consent and back to the application with a code. */
async function setNewPasswordAndFinish(page: Page, lang: TLang): Promise<void> {
  await expect(page).toHaveURL(/\/login\/recover\/password\?flow=/);
  await page.getByLabel(WORDS[lang].password, { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel(WORDS[lang].repeat).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: WORDS[lang].save }).click();
  const consent = new ConsentPage(page, lang);
  await consent.expectShown();
  await consent.allow.click();
  await expect(page).toHaveURL(/e2e-callback\?code=/);
}

for (const lang of ["en", "ru"] as TLang[]) {
  test(`a person resets a forgotten password with the code sent to their phone, read from the outbox (${lang})`, async ({ page, browser }) => {
    const w = WORDS[lang];
    const phonePerson = phonePeople[lang];
    // The administrator's page reads the outbox; the person works in a browser of their own.
    await signInAsAdmin(page);
    const context = await browser.newContext();
    const person = await context.newPage();
    // Typed as people write numbers: with a plus and spaces.
    await askForCode(person, lang, `+${phonePerson.phone.slice(0, 1)} ${phonePerson.phone.slice(1, 4)} ${phonePerson.phone.slice(4)}`);
    await expect(person.getByRole("main")).toContainText(`+${phonePerson.phone}`);
    await expect(person.getByRole("main")).toContainText(w.bySms);

    const outbox = new OutboxPage(page);
    await outbox.goto();
    await expect(outbox.row(phonePerson.phone)).toContainText("Pending");
    const text = await outbox.textOf(phonePerson.phone);
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    expect(code, `a six-digit code in: ${text}`).toBeDefined();

    await person.getByLabel(w.code, { exact: true }).fill(code!);
    await person.getByRole("button", { name: w.go }).click();
    await setNewPasswordAndFinish(person, lang);
    await context.close();

    // In a new browser, the old password is refused and the new one signs in.
    const other = await browser.newContext();
    const again = await other.newPage();
    const login = new LoginPage(again, lang);
    await again.goto(authorizePath(rp, { ui_locales: lang }));
    await login.signIn(phonePerson.sub, OLD_PASSWORD);
    await expect(login.error).toHaveText(w.badLogin);
    await login.signIn(phonePerson.sub, NEW_PASSWORD);
    await expect(again).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
    await other.close();
  });

  test(`with the second factor on, recovery asks for the authenticator's code before the new password (${lang})`, async ({ page, browser }) => {
    const w = WORDS[lang];
    const person = await createPerson(browser, "Двухфакторова");
    await signInToPortal(page, person.sub, "two-factor");
    const key = await turnOnSecondFactor(page);

    const context = await browser.newContext();
    const other = await context.newPage();
    await askForCode(other, lang, person.email);
    await expect.poll(() => mailTo(person.email).filter((m) => m.subject === w.subject).length).toBe(1);
    const code = /\b(\d{6})\b/.exec(mailTo(person.email).find((m) => m.subject === w.subject)!.text)![1]!;
    await other.getByLabel(w.code, { exact: true }).fill(code);
    await other.getByRole("button", { name: w.go }).click();

    // The e-mail code alone does not reach the new password page.
    await expect(other).toHaveURL(/\/login\/otp\?/);
    const otpUrl = other.url();
    const skipped = await context.newPage();
    const refused = await skipped.goto(otpUrl.replace("/login/otp?", "/login/recover/password?"));
    expect(refused?.status()).toBe(404);
    await expect(skipped.getByLabel(w.password, { exact: true })).toHaveCount(0);
    await skipped.close();

    await expectNoSeriousViolationsInBothSchemes(other, `the second-factor step of recovery (${lang})`);
    await other.getByLabel(w.otpCode).fill("12345");
    await other.getByRole("button", { name: w.go }).click();
    await expect(other.getByRole("alert")).toHaveText(w.otpWrong);
    // The next period's code: the one that turned the factor on may not be used twice.
    await other.getByLabel(w.otpCode).fill(totp(key, new Date(Date.now() + 30_000)));
    await other.getByRole("button", { name: w.go }).click();
    await setNewPasswordAndFinish(other, lang);
    await context.close();
  });
}
