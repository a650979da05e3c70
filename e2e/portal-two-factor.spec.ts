import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { PortalSectionPage } from "./pages/portal-sections.page.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";
import { totp, turnOnSecondFactor } from "./support/totp.ts";

// The portal's two-factor page: an authenticator app is added by reading the key from the page and
// computing the code with an implementation that is not ours, as a phone would; the second factor is turned on and off, and a
// sign-in in another browser then asks for the app's code after the password.

test("adds an authenticator app from the key on the page, turns the second factor on and off, and removes the app", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "two-factor");
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is off.");
  await expect(page.getByRole("button", { name: "Turn on" })).toBeDisabled();

  await page.getByRole("button", { name: "Add an authenticator app" }).click();
  await expect(page.locator("svg title", { hasText: "Add an authenticator app" })).toHaveCount(1);
  const key = (await page.getByTestId("otp-secret").textContent()) ?? "";
  expect(key.replace(/\s+/g, "")).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoSeriousViolations(page, "the two-factor page while adding an app");

  await page.getByLabel("Code the app shows").fill("000000");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();

  await page.getByLabel("Name (optional)").fill("My phone");
  // Unticked, the app is added and the factor stays off until "Turn on".
  await page.getByLabel("Turn on two-factor sign-in with this app").uncheck();
  await page.getByLabel("Code the app shows").fill(totp(key));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Authenticator added.")).toBeVisible();
  const table = page.getByRole("table", { name: "Your authenticators" });
  await expect(table.getByRole("row", { name: /My phone/ })).toBeVisible();

  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is off.");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is on.");
  await expect(page.getByTestId("backup-codes").locator("code")).toHaveCount(10);
  await page.getByRole("button", { name: "I have saved them" }).click();

  // The last authenticator cannot go while the factor is on.
  await page.getByRole("button", { name: "Remove My phone" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("dialog")).toContainText("Turn two-factor sign-in off");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is off.");
  await page.getByRole("button", { name: "Remove My phone" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("My phone removed.")).toBeVisible();
  await expect(page.getByText("No authenticator yet.")).toBeVisible();
});

/** The code of the next time step: the one just used to add the app is not accepted twice. */
const nextTotp = (key: string) => totp(key, new Date(Date.now() + 30_000));

test("signs in with the second factor once it is on: the password, then the app's code", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "two-factor");
  const key = await turnOnSecondFactor(page);

  // Another browser, without a session: the password alone no longer signs in.
  const other = await (await browser.newContext()).newPage();
  const portal = new PortalSectionPage(other);
  await portal.goto("account");
  await portal.signIn(person.sub, PERSON_PASSWORD);
  await expect(other).toHaveURL(/\/login\/otp\?/);
  await expect(other.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await expectNoSeriousViolations(other, "the sign-in's second-factor step");

  await other.getByLabel("Code from your authenticator app").fill("12345");
  await other.getByRole("button", { name: "Continue" }).click();
  await expect(other.getByRole("alert")).toHaveText("The code is wrong or already used. Type the current one.");

  await other.getByLabel("Code from your authenticator app").fill(nextTotp(key));
  await other.getByRole("button", { name: "Continue" }).click();
  await expect(other).toHaveURL(/\/account$/);
  await portal.expectSignedIn(person.sub);
});
