import { expect, test } from "@playwright/test";
import { ProfilePage } from "./pages/portal-sections.page.ts";
import { uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { codeFromMail } from "./support/mail.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";

// The profile page of the account portal, signed in through the service's own login page.

test("edits the profile: a field problem in words next to the field, a form older than a change elsewhere refused", async ({ browser, page }) => {
  const person = await createPerson(browser);
  const portal = await signInToPortal(page, person.sub, "profile");
  await portal.expectSignedIn(person.sub);
  const profile = new ProfilePage(page);
  await expect(profile.field("Family name")).toHaveValue("Порталов");

  await profile.field("Given name").fill("И".repeat(201));
  await profile.save.click();
  await expect(profile.alert("Nothing was saved: check the fields marked below.")).toBeVisible();
  await expect(profile.field("Given name")).toHaveAccessibleDescription("At most 200 characters.");
  await profile.field("Given name").fill("Ирина");
  await profile.save.click();
  await expect(profile.status("Saved.")).toBeVisible();
  await expectNoSeriousViolations(page, "the profile page");

  // Another window saves first; this one, filled from the version before, saves nothing.
  const other = new ProfilePage(await page.context().newPage());
  await other.goto("account/profile");
  await other.field("Middle name").fill("Петровна");
  await other.save.click();
  await expect(other.status("Saved.")).toBeVisible();
  await profile.field("Middle name").fill("Сергеевна");
  await profile.save.click();
  await expect(profile.alert(/changed elsewhere/)).toBeVisible();
  await page.getByRole("button", { name: "Reload" }).click();
  await expect(profile.alert(/changed elsewhere/)).toHaveCount(0);
  await expect(profile.field("Middle name")).toHaveValue("Петровна");
  await expect(profile.field("Given name")).toHaveValue("Ирина");
});

test("changes the e-mail with the code from the mail that arrived; a wrong code says how many attempts are left", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "profile");
  const profile = new ProfilePage(page);
  const card = profile.contact("E-mail");
  await expect(card.getByTestId("contact-email")).toHaveText(person.email);
  await expect(card.locator(".badge")).toHaveText("confirmed");

  const next = `new.${uniqueTag()}@example.org`;
  await profile.startChange("E-mail", next);
  await expect(card).toContainText(`We sent a code to ${next}.`);
  // The current address stays until the new one is confirmed; a new code waits for the cooldown.
  await expect(card.getByTestId("contact-email")).toHaveText(person.email);
  await expect(card.getByRole("button", { name: "Send a new code" })).toBeDisabled();
  await expect(card).toContainText(/A new code can be sent in \d+ s\./);
  await expectNoSeriousViolations(page, "the code entry");

  const code = await codeFromMail(next);
  await profile.enterCode("E-mail", code === "000000" ? "111111" : "000000");
  await expect(card.getByText("Wrong code. Attempts left: 2.")).toBeVisible();
  await profile.enterCode("E-mail", code);
  await expect(profile.status(`${next} is confirmed and saved.`)).toBeVisible();
  await expect(card.getByTestId("contact-email")).toHaveText(next);
  await expect(card.locator(".badge")).toHaveText("confirmed");
  expect(await page.content()).not.toContain(code);

  await profile.open("Overview");
  await expect(page.getByTestId("overview-email")).toHaveText(next);
});

test("a phone change whose attempts are used up says so and starts again with the number filled in", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "profile");
  const profile = new ProfilePage(page);
  const card = profile.contact("Phone");
  const digits = [...uniqueTag()].map((c) => c.charCodeAt(0) % 10).join("");
  const phone = `7916${digits}`.padEnd(11, "0");
  await profile.startChange("Phone", `+${phone}`);
  await expect(card).toContainText(`We sent a code to +7 ${phone.slice(1, 4)} ${phone.slice(4, 7)}-${phone.slice(7, 9)}-${phone.slice(9)}.`);
  for (const left of [2, 1]) {
    await profile.enterCode("Phone", "00000x");
    await expect(card.getByText(`Wrong code. Attempts left: ${left}.`)).toBeVisible();
  }
  await profile.enterCode("Phone", "00000x");
  await expect(card.getByRole("alert")).toHaveText("Too many wrong codes: this code no longer works.");
  await card.getByRole("button", { name: "Start again" }).click();
  await expect(card.getByLabel("New phone number")).toHaveValue(phone);
  await expect(card.getByText("not set")).toBeVisible();
});
