import { expect, test } from "@playwright/test";
import { PasswordPolicyPage, PortalPasswordPage } from "./pages/password.page.ts";
import { PortalPage } from "./pages/portal.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const NEW_PASSWORD = "a brand new e2e passphrase";

test("changes the password in the portal: each policy rule told, then every other device signed out", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub);
  const phoneContext = await browser.newContext({ userAgent: IPHONE });
  const phone = await phoneContext.newPage();
  await signInToPortal(phone, person.sub);

  const password = new PortalPasswordPage(page);
  await page.goto("account/password");
  await expect(page.getByRole("heading", { level: 1, name: "Password" })).toBeVisible();
  await expect(page.getByText("At least 15 characters.")).toBeVisible();
  await expectNoSeriousViolations(page, "the password page");

  await password.change(PERSON_PASSWORD, NEW_PASSWORD, "something else");
  await expect(page.getByText("The two new passwords differ")).toBeVisible();

  await password.change(PERSON_PASSWORD, "1qaz2wsx3edc4rfv");
  await expect(password.problems).toContainText("This is one of the most common passwords and easy to guess");
  await password.change(PERSON_PASSWORD, PERSON_PASSWORD);
  await expect(password.problems).toContainText("The new password is the same as the current one");

  await password.change("not my password", NEW_PASSWORD);
  await expect(page.getByText("The current password is wrong")).toBeVisible();

  await password.change(PERSON_PASSWORD, NEW_PASSWORD);
  await password.expectChanged();

  // The other browser is signed out; this one stays.
  await phone.reload();
  await new PortalPage(phone).expectSignInShown();
  await phoneContext.close();
  await page.reload();
  await password.expectSignedIn(person.sub);
});

test("the console edits the password policy", async ({ page }) => {
  await signInAsAdmin(page);
  const policy = new PasswordPolicyPage(page);
  await policy.goto();
  await expect(policy.minLength).toHaveValue("15");
  await expect(policy.minLengthWithSecondFactor).toHaveValue("8");
  await expectNoSeriousViolations(page, "the password policy page");
  await policy.minLength.fill("3");
  await policy.save.click();
  await expect(page.getByRole("alert").first()).toBeVisible();
  await policy.minLength.fill("16");
  await policy.minLengthWithSecondFactor.fill("10");
  await page.getByLabel("Stop words, one per line").fill("e2e-stop-word");
  await policy.save.click();
  await policy.expectSaved();
  await page.reload();
  await expect(page.getByLabel("Stop words, one per line")).toHaveValue("e2e-stop-word");
  await expect(policy.minLength).toHaveValue("16");
  await expect(policy.minLengthWithSecondFactor).toHaveValue("10");
  await page.getByRole("button", { name: "Back to the default" }).click();
  await policy.save.click();
  await policy.expectSaved();
});
