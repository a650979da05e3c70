import { expect, test } from "@playwright/test";
import { signInAsAdmin, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";

// The directories page, reached from the Security menu. The suite's server has no directory (the
// directory tests start slapd for servers of their own), so this is the page an installation without
// one sees: what a directory is for and where it is configured, in both languages and both schemes.

test("the directories page is in the Security menu and says where a directory is configured", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("console");
  await page.getByRole("navigation").getByRole("button", { name: "Security" }).click();
  await page.getByRole("navigation").getByRole("link", { name: "Directories" }).click();
  await expect(page.getByRole("heading", { name: "Directories", level: 1 })).toBeVisible();
  await expect(page.getByText("No directory is configured. Add one in the import document's directories section.")).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the directories page");
  await useConsoleLanguage(page, "ru");
  await page.goto("console/directories");
  await expect(page.getByRole("heading", { name: "Каталоги", level: 1 })).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the directories page (ru)");
});
