import { expect, test } from "@playwright/test";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { ConsentPage } from "./pages/consent.page.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { PortalSectionPage } from "./pages/portal-sections.page.ts";
import { addPasskeyInPortal, virtualAuthenticator, withoutAutofill } from "./support/passkeys.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";
import { turnOnSecondFactor } from "./support/totp.ts";

// Passkeys in the portal and on the sign-in pages with Chromium's virtual authenticator
// (e2e/support/passkeys.ts).

test("a person adds a passkey in the portal, renames it and removes it", async ({ page, browser }) => {
  const person = await createPerson(browser, "Ключева");
  const device = await virtualAuthenticator(page);
  await signInToPortal(page, person.sub, "passkeys");
  await expect(page.getByRole("heading", { name: "Passkeys", level: 1 })).toBeVisible();
  await expect(page.getByText("No passkey yet.")).toBeVisible();

  const add = page.getByRole("form", { name: "Add a passkey" });
  await add.getByLabel("Name of the new passkey").fill("Work laptop");
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey Work laptop added." })).toBeVisible();
  const table = page.getByRole("table", { name: "Your passkeys" });
  await expect(table.getByRole("row").filter({ hasText: "Work laptop" })).toContainText("On one device");
  // The device holds a discoverable credential for this service.
  expect(await device.credentials()).toHaveLength(1);

  // The same device is not registered twice.
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(add.getByRole("alert")).toHaveText("This device has a passkey for your account already.");

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `the passkeys page (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });

  await table.getByRole("button", { name: "Rename Work laptop" }).click();
  const rename = page.getByRole("dialog", { name: "Rename Work laptop" });
  await rename.getByLabel("Name").fill("Old laptop");
  await rename.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Renamed to Old laptop." })).toBeVisible();

  await table.getByRole("button", { name: "Remove Old laptop" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove Old laptop?" });
  await confirm.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Old laptop removed." })).toBeVisible();
  await expect(page.getByText("No passkey yet.")).toBeVisible();
});

test("an administrator sees a person's passkey on their page in the console and removes it", async ({ page, browser }) => {
  const person = await createPerson(browser, "Ключникова");
  await virtualAuthenticator(page);
  await signInToPortal(page, person.sub, "passkeys");
  const add = page.getByRole("form", { name: "Add a passkey" });
  await add.getByLabel("Name of the new passkey").fill("Phone");
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey Phone added." })).toBeVisible();

  // The administrator in a browser of their own (axe needs a page of a context made by newContext).
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsAdmin(admin);
  await new UserDetailPage(admin).goto(person.sub);
  const card = admin.getByRole("region", { name: "Passkeys" });
  await expect(card.getByRole("row").filter({ hasText: "Phone" })).toContainText("device-bound");
  await expectNoSeriousViolations(admin, "a user's page with a passkey");
  await card.getByRole("button", { name: "Remove Phone" }).click();
  await admin.getByRole("dialog", { name: "Remove the passkey Phone?" }).getByRole("button", { name: "Remove" }).click();
  await expect(card.getByRole("status").filter({ hasText: "Passkey Phone removed." })).toBeVisible();
  await expect(card).toContainText("No passkey.");
  await adminContext.close();

  // What the passkey may have signed in ended with it: the person's portal asks them to sign in again.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
});

test("a person signs in with a passkey from the sign-in page's button, without typing anything", async ({ page, browser }) => {
  const person = await createPerson(browser, "Безпарольная");
  await withoutAutofill(page);
  await virtualAuthenticator(page);
  const portal = await signInToPortal(page, person.sub, "passkeys");
  const add = page.getByRole("form", { name: "Add a passkey" });
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "added." })).toBeVisible();

  // Signed out here and at the service, the next sign-in starts at the service's sign-in page.
  await portal.signOut();
  await portal.expectSignInShown();
  await portal.signInButton.click();
  await portal.idp.expectShown();
  const passkey = page.getByRole("button", { name: "Sign in with a passkey" });
  await expect(passkey).toBeVisible();
  await expectNoSeriousViolations(page, "the sign-in page with its passkey button");
  await passkey.click();
  await portal.expectSignedIn(person.sub);
  // The sign-in used it: it has a last use now.
  await page.goto("account/passkeys");
  await expect(page.getByRole("table", { name: "Your passkeys" }).getByRole("row").filter({ hasText: "Passkey" })).not.toContainText("never");
});

test("the sign-in page offers the person's passkey in the login field's autofill, and picking it signs in", async ({ page, browser }) => {
  const person = await createPerson(browser, "Автозаполнова");
  await virtualAuthenticator(page);
  const portal = await signInToPortal(page, person.sub, "passkeys");
  await addPasskeyInPortal(page);
  await portal.signOut();
  await portal.expectSignInShown();
  // Chromium's virtual authenticator answers the quiet (conditional) request on load, as the
  // person's pick in the autofill would: the page posts the answer and the portal opens.
  const answered = page.waitForResponse((r) => r.url().includes("/login/passkey?") && r.request().method() === "POST");
  await portal.signInButton.click();
  expect((await answered).status()).toBe(303);
  await portal.expectSignedIn(person.sub);

  // The login field is marked for it (seen in a browser without that passkey, where nothing is answered).
  const other = await (await browser.newContext()).newPage();
  const otherPortal = new PortalSectionPage(other);
  await otherPortal.goto("account");
  await otherPortal.signInButton.click();
  await otherPortal.idp.expectShown();
  await expect(other.getByLabel("Username, e-mail or phone")).toHaveAttribute("autocomplete", "username webauthn");
  await other.context().close();
});

test("with the second factor on, the step after the password takes a passkey instead of a code", async ({ page, browser }) => {
  const person = await createPerson(browser, "Второфакторова");
  await withoutAutofill(page);
  await virtualAuthenticator(page);
  await signInToPortal(page, person.sub, "two-factor");
  await turnOnSecondFactor(page);
  const portal = new PortalSectionPage(page);
  await portal.goto("account/passkeys");
  await addPasskeyInPortal(page);

  await portal.signOut();
  await portal.expectSignInShown();
  await portal.signIn(person.sub, PERSON_PASSWORD);
  await expect(page).toHaveURL(/\/login\/otp\?/);
  const usePasskey = page.getByRole("button", { name: "Use a passkey instead" });
  await expect(usePasskey).toBeVisible();
  await expectNoSeriousViolations(page, "the second-factor step with a passkey");
  await usePasskey.click();
  await expect(page).toHaveURL(/\/account$/);
  await portal.expectSignedIn(person.sub);
});

test("an application that asks for a passkey (acr_values=phr) gets a sign-in page with only the passkey", async ({ page, browser }) => {
  const adminContext = await browser.newContext();
  const rp = await createRelyingParty(await signInAsAdmin(await adminContext.newPage()));
  await adminContext.close();
  const person = await createPerson(browser, "Фишингоустойчивая");
  await withoutAutofill(page);
  await virtualAuthenticator(page);
  await signInToPortal(page, person.sub, "passkeys");
  await addPasskeyInPortal(page);

  // Signed in with the password, which does not count for this application.
  await page.goto(authorizePath(rp, { acr_values: "phr", ui_locales: "en" }));
  await expect(page).toHaveURL(/\/login\?flow=/);
  await expect(page.getByText(`Shop ${rp.id} asks you to sign in with a passkey.`)).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expectNoSeriousViolations(page, "the sign-in page that offers only a passkey");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  const consent = new ConsentPage(page, "en");
  await consent.expectShown();
  await consent.allow.click();
  await expect(page).toHaveURL(/e2e-callback\?code=/);
});

test("a passwordless account: the person gives the password up, the password no longer signs in, the passkey does", async ({ page, browser }) => {
  const person = await createPerson(browser, "Беспарольная");
  await withoutAutofill(page);
  await virtualAuthenticator(page);
  const portal = await signInToPortal(page, person.sub, "passkeys");
  const card = page.getByRole("region", { name: "Sign in without a password" });
  await expect(card).toContainText("Add a passkey first");
  await addPasskeyInPortal(page);

  await card.getByRole("button", { name: "Sign in without a password from now on" }).click();
  const confirm = page.getByRole("dialog", { name: "Give up your password?" });
  await expectNoSeriousViolations(page, "the dialog that gives the password up");
  await confirm.getByRole("button", { name: "Sign in without a password from now on" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your password is removed." })).toBeVisible();
  await expect(card.getByTestId("passwordless-state")).toContainText("Your account has no password");
  // Its only passkey cannot go now: there would be no way in.
  await page.getByRole("table", { name: "Your passkeys" }).getByRole("button", { name: /^Remove/ }).click();
  const remove = page.getByRole("dialog", { name: /^Remove/ });
  await remove.getByRole("button", { name: "Remove" }).click();
  await expect(remove.getByRole("alert")).toContainText("only way to sign in");
  await remove.getByRole("button", { name: "Cancel" }).click();

  await portal.signOut();
  await portal.expectSignInShown();
  await portal.signInButton.click();
  await portal.idp.signIn(person.sub, PERSON_PASSWORD);
  await expect(page.getByRole("alert")).toHaveText("Wrong username or password.");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await portal.expectSignedIn(person.sub);
});
