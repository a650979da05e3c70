import { expect, test } from "@playwright/test";
import { IdpLoginPage } from "./pages/idp-login.page.ts";
import { PortalPasswordPage } from "./pages/password.page.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { addPasskeyInPortal, virtualAuthenticator, withoutAutofill } from "./support/passkeys.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";
import { totp, turnOnSecondFactor } from "./support/totp.ts";

// scripts/e2e.mjs starts the server with a short IDP_REAUTH_MAX_AGE and passes it on.
const REAUTH_MAX_AGE_S = Number(process.env.E2E_REAUTH_MAX_AGE ?? "30");
const NEW_PASSWORD = "a step-up e2e passphrase";

test("a password change after the sign-in grew old asks to confirm it's you, then succeeds", async ({ browser, page }) => {
  test.setTimeout(60_000 + REAUTH_MAX_AGE_S * 1000);
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "password");
  const signedInAt = Date.now();
  const password = new PortalPasswordPage(page);
  const notice = page.getByRole("status").filter({ hasText: "Changes on this page need a recent sign-in" });
  await expect(notice).toHaveCount(0);

  // The sign-in grows older than IDP_REAUTH_MAX_AGE while the page stays open.
  await page.waitForTimeout(Math.max(0, signedInAt + (REAUTH_MAX_AGE_S + 1) * 1000 - Date.now()));
  await expect(notice).toBeVisible();

  // The server refuses the change; the page says why and offers to sign in again.
  await password.change(PERSON_PASSWORD, NEW_PASSWORD);
  const dialog = page.getByRole("dialog", { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await expect(page.getByText("Confirm it's you first: sign in again, then repeat the change.")).toBeVisible();
  await expectNoSeriousViolations(page, "the confirm-it's-you dialog");

  // The service asks for the password although its session is still open (prompt=login), then comes back here.
  await dialog.getByRole("button", { name: "Sign in again" }).click();
  const login = new IdpLoginPage(page);
  await login.signIn(person.sub, PERSON_PASSWORD);
  await expect(page).toHaveURL(/\/account\/password$/);
  await expect(notice).toHaveCount(0);

  await password.change(PERSON_PASSWORD, NEW_PASSWORD);
  await password.expectChanged();
});

test("with the second factor on, confirming asks for the password and the app's code, from the page's notice", async ({ browser, page }) => {
  test.setTimeout(60_000 + REAUTH_MAX_AGE_S * 1000);
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "two-factor");
  const signedInAt = Date.now();
  const key = await turnOnSecondFactor(page);

  // A step later than the code used to add the app, so the next code is a new one.
  await page.waitForTimeout(Math.max(0, signedInAt + (Math.max(REAUTH_MAX_AGE_S, 30) + 1) * 1000 - Date.now()));
  await page.reload();
  const notice = page.getByRole("status").filter({ hasText: "Changes on this page need a recent sign-in" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Confirm it's you" }).click();
  await new IdpLoginPage(page).signIn(person.sub, PERSON_PASSWORD);
  await expect(page).toHaveURL(/\/login\/otp\?/);
  await page.getByLabel("Code from your authenticator app").fill(totp(key));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  await expect(notice).toHaveCount(0);

  await page.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is off.");
});

test("confirming it's you with a passkey: the sign-in page's passkey button, then the change succeeds", async ({ browser, page }) => {
  test.setTimeout(60_000 + REAUTH_MAX_AGE_S * 1000);
  const person = await createPerson(browser);
  await withoutAutofill(page);
  await virtualAuthenticator(page);
  await signInToPortal(page, person.sub, "passkeys");
  const signedInAt = Date.now();
  await addPasskeyInPortal(page);

  await page.goto("account/password");
  await page.waitForTimeout(Math.max(0, signedInAt + (REAUTH_MAX_AGE_S + 1) * 1000 - Date.now()));
  const notice = page.getByRole("status").filter({ hasText: "Changes on this page need a recent sign-in" });
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Confirm it's you" }).click();
  // No password typed: the passkey is the whole sign-in, and a recent one.
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/account\/password$/);
  await expect(notice).toHaveCount(0);

  const password = new PortalPasswordPage(page);
  await password.change(PERSON_PASSWORD, NEW_PASSWORD);
  await password.expectChanged();
});
