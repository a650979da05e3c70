import { expect, test } from "@playwright/test";
import { consentsPage, devicesPage } from "./pages/portal-sections.page.ts";
import { PortalPage } from "./pages/portal.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// Devices, consents and events in the account portal.

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

test("signs out another device: that browser's next portal load asks to sign in, this one stays", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub);
  const phoneContext = await browser.newContext({ userAgent: IPHONE });
  const phone = await phoneContext.newPage();
  await signInToPortal(phone, person.sub, "events");

  const devices = devicesPage(page);
  await devices.open("Devices");
  await expect(devices.table.getByRole("row")).toHaveCount(3);
  await expect(devices.row("This device")).toContainText("Chrome, Linux");
  await expect(devices.row("Safari, iOS")).not.toContainText("This device");
  await expectNoSeriousViolations(page, "the devices page");

  await devices.remove("Safari, iOS");
  await expect(devices.status("Safari, iOS is signed out.")).toBeVisible();
  await expect(devices.table.getByRole("row")).toHaveCount(2);

  await phone.reload();
  await new PortalPage(phone).expectSignInShown();
  await page.reload();
  await devices.expectSignedIn(person.sub);
  await phoneContext.close();

  // The person's own trail tells it, in words, with this portal as the application.
  await devices.open("Events");
  await page.getByLabel("Type").selectOption({ label: "Device signed out" });
  const events = page.getByRole("table", { name: "Your security events" });
  await expect(events.getByRole("row")).toHaveCount(2);
  await expect(events).toContainText("This account portal");
});

test("revokes the consent given to an application, which then asks again", async ({ browser, page }) => {
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  const rp = await createRelyingParty(await signInAsAdmin(adminPage));
  await admin.close();
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub);

  // The person's browser is signed in to the service: the application gets straight to the consent.
  await page.goto(authorizePath(rp));
  await expect(page.getByRole("heading", { name: "Allow access" })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/e2e-callback\?code=/);

  const consents = consentsPage(page);
  await consents.goto("account/consents");
  await expect(consents.row(`Shop ${rp.id}`)).toContainText("Your name");
  await expectNoSeriousViolations(page, "the consents page");
  await consents.remove(`Shop ${rp.id}`);
  await expect(consents.status(`The access of Shop ${rp.id} is revoked.`)).toBeVisible();
  await expect(page.getByText("You have not allowed any application yet.")).toBeVisible();

  await page.goto(authorizePath(rp));
  await expect(page.getByRole("heading", { name: "Allow access" })).toBeVisible();
});
