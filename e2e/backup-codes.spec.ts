import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";
import { authorizePath, createRelyingParty, type TRelyingParty } from "./support/relying-party.ts";
import { totp } from "./support/totp.ts";

// Backup codes, as a person meets them: adding an authenticator app turns the second factor on and
// shows ten codes once (a list, a file to download); in another browser, a code gets them past the
// second step, the same code a second time does not; the portal counts what is left and makes a
// new set. Then an administrator resets the second factor of someone who lost their phone, and the
// password alone signs in again. Both languages, axe in both colour schemes on every new state.

const WORDS = {
  en: {
    add: "Add an authenticator app", code: "Code the app shows", confirm: "Confirm", turnOnWith: "Turn on two-factor sign-in with this app",
    shownTitle: "Save your backup codes", download: "Download as a file", saved: "I have saved them", left: (n: number) => `${n} of 10 codes left`,
    renew: "Make a new set", renewTitle: "Make a new set of backup codes?", useBackup: "No access to the app? Use a backup code", backupCode: "Backup code",
    go: "Continue", wrong: "That is not an unused backup code. Check it, or use another one.", on: "Two-factor sign-in is on.",
  },
  ru: {
    add: "Добавить приложение-аутентификатор", code: "Код из приложения", confirm: "Подтвердить", turnOnWith: "Включить двухфакторный вход с этим приложением",
    shownTitle: "Сохраните резервные коды", download: "Скачать файлом", saved: "Коды сохранены", left: (n: number) => `Осталось кодов: ${n} из 10`,
    renew: "Создать новый набор", renewTitle: "Создать новый набор резервных кодов?", useBackup: "Нет доступа к приложению? Войдите с резервным кодом", backupCode: "Резервный код",
    go: "Продолжить", wrong: "Это не неиспользованный резервный код. Проверьте его или введите другой.", on: "Двухфакторный вход включён.",
  },
};

let rp: TRelyingParty;
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  rp = await createRelyingParty(await signInAsAdmin(page));
  await page.close();
});


const useLanguage = async (page: Page, lang: TLang) =>
  page.context().addCookies([{ name: "idp_lang", value: lang, domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);

/** A new browser through an application's sign-in: the password, then the second step's backup-code form. */
async function atBackupStep(browser: Browser, lang: TLang, sub: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await useLanguage(page, lang);
  await page.goto(authorizePath(rp, { ui_locales: lang }));
  await new LoginPage(page, lang).signIn(sub, PERSON_PASSWORD);
  await expect(page).toHaveURL(/\/login\/otp\?/);
  await page.getByRole("link", { name: WORDS[lang].useBackup }).click();
  await expect(page.getByLabel(WORDS[lang].backupCode)).toBeVisible();
  return page;
}

for (const lang of ["en", "ru"] as TLang[]) {
  test(`backup codes are shown once, sign in once each, and are renewed (${lang})`, async ({ browser, page }) => {
    const w = WORDS[lang];
    const person = await createPerson(browser);
    await signInToPortal(page, person.sub, "two-factor");
    await useLanguage(page, lang);
    await page.reload();

    // Adding the app turns the factor on in the same step (ticked by default) and shows the codes.
    await page.getByRole("button", { name: w.add }).click();
    const key = (await page.getByTestId("otp-secret").textContent()) ?? "";
    await expect(page.getByLabel(w.turnOnWith)).toBeChecked();
    await page.getByLabel(w.code).fill(totp(key));
    await page.getByRole("button", { name: w.confirm }).click();
    const shown = page.getByTestId("backup-codes");
    await expect(shown.getByRole("heading", { name: w.shownTitle })).toBeFocused();
    await expect(page.getByTestId("second-factor-state")).toHaveText(w.on);
    await expect(shown.locator("code")).toHaveCount(10);
    const codes = await shown.locator("code").allTextContents();
    await expectNoSeriousViolationsInBothSchemes(page, `the backup codes shown once (${lang})`);

    const downloading = page.waitForEvent("download");
    await shown.getByRole("link", { name: w.download }).click();
    const file = await readFile((await (await downloading).path())!, "utf8");
    for (const c of codes) expect(file).toContain(c);
    await shown.getByRole("button", { name: w.saved }).click();
    await expect(page.getByTestId("backup-left")).toContainText(w.left(10));
    await expect(page.locator("body")).not.toContainText(codes[0]!);

    // Another browser: the first code signs in, then it is refused in a third; the next one works.
    const first = await atBackupStep(browser, lang, person.sub);
    await expectNoSeriousViolationsInBothSchemes(first, `the sign-in's backup-code step (${lang})`);
    await first.getByLabel(w.backupCode).fill(codes[0]!);
    await first.getByRole("button", { name: w.go }).click();
    await expect(first).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);

    const second = await atBackupStep(browser, lang, person.sub);
    await second.getByLabel(w.backupCode).fill(codes[0]!);
    await second.getByRole("button", { name: w.go }).click();
    await expect(second.getByRole("main").getByRole("alert")).toHaveText(w.wrong);
    await expectNoSeriousViolationsInBothSchemes(second, `the backup-code step with a refusal (${lang})`);
    await second.getByLabel(w.backupCode).fill(codes[1]!.toUpperCase());
    await second.getByRole("button", { name: w.go }).click();
    await expect(second).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);

    // The portal counts what is left, and a new set replaces the old one.
    await page.reload();
    await expect(page.getByTestId("backup-left")).toContainText(w.left(8));
    await page.getByRole("button", { name: w.renew }).click();
    const dialog = page.getByRole("dialog", { name: w.renewTitle });
    await dialog.getByRole("button", { name: w.renew }).click();
    await expect(page.getByTestId("backup-codes").locator("code")).toHaveCount(10);
    const renewed = await page.getByTestId("backup-codes").locator("code").allTextContents();
    expect(renewed.filter((c) => codes.includes(c))).toEqual([]);
  });
}

test("an administrator resets the second factor of someone who lost their phone, with a reason", async ({ browser, page }) => {
  const person = await createPerson(browser);
  const portal = await (await browser.newContext()).newPage();
  await signInToPortal(portal, person.sub, "two-factor");
  await portal.getByRole("button", { name: WORDS.en.add }).click();
  const key = (await portal.getByTestId("otp-secret").textContent()) ?? "";
  await portal.getByLabel(WORDS.en.code).fill(totp(key));
  await portal.getByRole("button", { name: WORDS.en.confirm }).click();
  await expect(portal.getByTestId("backup-codes")).toBeVisible();

  await signInAsAdmin(page);
  const detail = new UserDetailPage(page);
  await detail.goto(person.sub);
  const card = page.getByRole("region", { name: "Second factor" });
  await expect(card.getByTestId("backup-codes-count")).toHaveText("Backup codes: 10 of 10 unused");
  await card.getByRole("button", { name: "Reset second factor…" }).click();
  const dialog = page.getByRole("dialog", { name: "Reset the second factor?" });
  await dialog.getByRole("button", { name: "Reset second factor" }).click();
  await expect(dialog.getByText("Say why the second factor is reset.")).toBeVisible();
  await expect(dialog.getByLabel("Reason")).toBeFocused();
  await expectNoSeriousViolationsInBothSchemes(page, "the reset second factor dialog with a missing reason");
  await dialog.getByLabel("Reason").fill("Ticket 4711: phone lost");
  await dialog.getByRole("button", { name: "Reset second factor" }).click();
  await expect(card).toContainText("Second factor reset: 1 generator(s) and 10 backup code(s) removed.");
  await expect(card.getByTestId("backup-codes-count")).toHaveText("No backup codes");
  await expect(card).toContainText("Second factor off");

  // The password alone signs in again.
  const other = await (await browser.newContext()).newPage();
  await other.goto(authorizePath(rp, { ui_locales: "en" }));
  await new LoginPage(other, "en").signIn(person.sub, PERSON_PASSWORD);
  await expect(other).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
});
