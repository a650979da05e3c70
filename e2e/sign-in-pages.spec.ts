import { expect, test, type Locator, type Page } from "@playwright/test";
import { ConsentPage } from "./pages/consent.page.ts";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { OutboxPage } from "./pages/outbox.page.ts";
import { CodesPage, RegisterPage } from "./pages/register.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { authorizePath, createRelyingParty, type TRelyingParty } from "./support/relying-party.ts";

// The sign-in, consent and sign-up pages people reach from an application: accessible in both
// languages and both colour schemes, usable by keyboard alone, and complete without JavaScript.

const PASSWORD = "a long e2e passphrase";
let rp: TRelyingParty;
/** Accounts with a password, made in the console: one per test that signs in, so none waits on another's lockout. */
const people = { axe: `axe-${uniqueTag()}`, keyboard: `kbd-${uniqueTag()}` };

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  rp = await createRelyingParty(await signInAsAdmin(page));
  const users = new UsersPage(page);
  await users.goto();
  for (const sub of Object.values(people)) await users.create({ sub, familyName: "Доступнов", givenName: "Клава", password: PASSWORD });
  await page.close();
});

const newEmail = () => `signup.${uniqueTag()}@example.org`;
const newPhone = () => `79${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? "";

for (const lang of ["en", "ru"] as TLang[]) {
  for (const colorScheme of ["light", "dark"] as const) {
    test(`axe finds no serious violation on the sign-in, QR, sign-up, code entry and consent pages (${lang}, ${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      const check = (what: string) => expectNoSeriousViolations(page, `${what} (${lang}, ${colorScheme})`);
      const login = new LoginPage(page, lang);
      await page.goto(authorizePath(rp, { ui_locales: lang }));
      await login.expectShown();
      await check("the sign-in page");
      await login.qrButton.click();
      await expect(page).toHaveURL(/\/login\/qr\?flow=/);
      await check("the QR code waiting page");
      await login.passwordLink.click();
      await login.expectShown();
      await login.signIn(people.axe, "not the password");
      await expect(login.error).toBeVisible();
      await expect(login.password).toHaveAttribute("aria-invalid", "true");
      await check("the sign-in page with a refusal");

      await login.registerLink.click();
      const register = new RegisterPage(page, lang);
      await register.expectShown();
      await check("the sign-up page");
      await register.signUp({ password: "short", repeat: "other" });
      await expect(register.summary).toBeVisible();
      await expect(register.field("email")).toBeFocused();
      await check("the sign-up page with refusals");
      await register.signUp({ givenName: "Ада", email: newEmail(), phone: newPhone(), password: PASSWORD });
      const codes = new CodesPage(page, lang);
      await codes.expectShown();
      await check("the code entry page");
      await codes.enter("email", "000000x");
      await expect(codes.state("email")).toHaveAttribute("role", "alert");
      await check("the code entry page with a refusal");

      await page.goto(authorizePath(rp, { ui_locales: lang }));
      await login.signIn(people.axe, PASSWORD);
      const consent = new ConsentPage(page, lang);
      await consent.expectShown();
      await check("the consent page");
      // Denied, so that the next run is asked again.
      await consent.deny.click();
      await expect(page).toHaveURL(/e2e-callback\?error=access_denied/);
    });
  }
}

/** The element that has the focus, as "tag#id" or "tag:text". */
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : `:${el.textContent?.trim()}`}` : "";
});

/** Keyboard focus must be seen: the focused element draws the outline of :focus-visible. */
async function expectVisibleFocus(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  await expect(target).toHaveCSS("outline-style", "solid");
  await expect(target).not.toHaveCSS("outline-width", "0px");
}

test("signs in and consents with the keyboard alone (Tab and Enter), in a logical order with visible focus", async ({ page }) => {
  const login = new LoginPage(page, "en");
  await page.goto(authorizePath(rp, { ui_locales: "en" }));
  await login.expectShown();
  // The order follows the page: identifier, password, sign in, forgot password, passkey, QR code, create an account, language.
  await expectVisibleFocus(login.identifier);
  const order = [];
  for (let i = 0; i < 7; i++) {
    await page.keyboard.press("Tab");
    order.push(await focused(page));
  }
  expect(order).toEqual(["input#password", "button:Sign in", "a:Forgot password?", "button:Sign in with a passkey", "button:Use a QR code instead", "a:Create an account", "a:Русский"]);
  await expectVisibleFocus(login.languageLink);

  await page.reload();
  await expectVisibleFocus(login.identifier);
  await page.keyboard.type(people.keyboard);
  await page.keyboard.press("Tab");
  await expectVisibleFocus(login.password);
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press("Tab");
  await expectVisibleFocus(login.submit);
  await page.keyboard.press("Enter");

  const consent = new ConsentPage(page, "en");
  await consent.expectShown();
  await expectVisibleFocus(consent.allow);
  await page.keyboard.press("Tab");
  await expectVisibleFocus(consent.deny);
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/e2e-callback\?code=[\w-]+&state=\w+&iss=/);
});

test("signs up with JavaScript turned off, with the codes from the outbox, and goes on to the application", async ({ browser, page }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const person = await context.newPage();
  const email = newEmail();
  const phone = newPhone();
  await person.goto(authorizePath(rp, { ui_locales: "en" }));
  const login = new LoginPage(person, "en");
  await login.expectShown();
  await login.registerLink.click();
  const register = new RegisterPage(person, "en");
  await register.expectShown();
  await register.signUp({ familyName: "Безскриптов", givenName: "Ян", email, phone, password: PASSWORD });
  const codes = new CodesPage(person, "en");
  await codes.expectShown();
  await expect(codes.state("email")).toHaveText("The code is valid for 10 min.");

  // No transport is configured: the codes wait in the outbox, where an administrator reads them.
  await signInAsAdmin(page);
  const outbox = new OutboxPage(page);
  await outbox.goto();
  await codes.enter("email", codeIn(await outbox.textOf(email)));
  await expect(person.getByRole("status")).toHaveText(`The address ${email} is confirmed.`);
  await expect(codes.code("email")).toHaveCount(0);
  await codes.enter("phone", codeIn(await outbox.textOf(phone)));

  const consent = new ConsentPage(person, "en");
  await consent.expectShown();
  await expect(person.getByText("Signed in as Ян Безскриптов.")).toBeVisible();
  await consent.allow.click();
  await expect(person).toHaveURL(/e2e-callback\?code=[\w-]+&state=\w+&iss=/);
  await context.close();

  const users = new UsersPage(page);
  await users.goto();
  await users.searchFor(email);
  await expect(users.table).toContainText("Безскриптов");
  await expect(users.table).toContainText(email);
});
