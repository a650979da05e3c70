import { expect, test } from "@playwright/test";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson } from "./support/portal.ts";

// OTP devices: an administrator loads a device file (all or nothing, each mistake named by line),
// then finds the tokens in the list; a user's page shows the second factor and refuses to turn it
// on without a generator.

const KEY = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

test("loads a CSV device file after its mistakes are named, and lists the tokens", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("console/otp-devices");
  await expect(page.getByRole("heading", { name: "OTP devices" })).toBeVisible();
  const tag = uniqueTag().toUpperCase();
  const form = page.getByRole("form", { name: "Load a device file" });
  await form.getByLabel("Format").selectOption("csv");

  await form.getByLabel("File").setInputFiles({ name: "tokens.csv", mimeType: "text/csv", buffer: Buffer.from(`serial,secret,algo,len,counter\n${tag}-1,${KEY},SHA1,6,0\n${tag}-2,${KEY},MD5,6,0\n`) });
  await form.getByRole("button", { name: "Load" }).click();
  await expect(form.getByRole("alert")).toContainText("nothing was loaded");
  await expect(form.getByRole("alert")).toContainText("line 3");

  await form.getByLabel("File").setInputFiles({ name: "tokens.csv", mimeType: "text/csv", buffer: Buffer.from(`${tag}-1,${KEY},SHA1,6,0\n${tag}-2,hex:3132333435363738393031323334353637383930,SHA256,8,30s\n`) });
  await form.getByRole("button", { name: "Load" }).click();
  await expect(form.getByRole("status")).toHaveText("Loaded: 2 new, 0 updated, 0 unchanged.");

  await page.getByLabel("Search by serial").fill(tag);
  const table = page.getByRole("table", { name: "OTP devices" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row", { name: new RegExp(`${tag}-2`) })).toContainText("TOTP, 30 s");
  await expectNoSeriousViolations(page, "the OTP devices page");
});

test("a user's page refuses the second factor without a generator", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInAsAdmin(page);
  const detail = new UserDetailPage(page);
  await detail.goto(person.sub);
  const card = page.getByRole("region", { name: "Second factor" });
  await expect(card).toContainText("No one-time-password generator is bound.");
  await expect(card).toContainText("Second factor off");
  await card.getByRole("button", { name: "Require second factor" }).click();
  await expect(card).toContainText("Bind a generator first");
  await card.getByRole("button", { name: "Require password change" }).click();
  await expect(card).toContainText("Password change required at next sign-in");
});
