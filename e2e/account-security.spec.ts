import { expect, test } from "@playwright/test";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";

// The security question in the portal; an account's state and properties on the console's user page.

test("the person sets, changes and deletes their security question in the portal", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInToPortal(page, person.sub, "security-question");
  const main = page.getByRole("main");
  await expect(main.getByText("No security question is set.")).toBeVisible();

  await main.getByRole("button", { name: "Save" }).click();
  await expect(main.getByText("Fill this in.")).toHaveCount(2);
  await main.getByLabel("Question", { exact: true }).fill("Кличка первого питомца?");
  await main.getByLabel("Answer", { exact: true }).fill("Пушок");
  await main.getByRole("button", { name: "Save" }).click();
  await expect(main.getByRole("status").filter({ hasText: "Your security question is saved." })).toBeVisible();
  await expect(main.getByTestId("security-question")).toHaveText("Кличка первого питомца?");
  await expect(main.getByText("Пушок")).toHaveCount(0);
  await expectNoSeriousViolations(page, "the security question page");

  await main.getByRole("button", { name: "Change question and answer" }).click();
  await expect(main.getByLabel("Question", { exact: true })).toHaveValue("Кличка первого питомца?");
  await expect(main.getByLabel("Answer", { exact: true })).toHaveValue("");
  await main.getByLabel("Question", { exact: true }).fill("Город детства?");
  await main.getByLabel("Answer", { exact: true }).fill("Тверь");
  await main.getByRole("button", { name: "Save" }).click();
  await expect(main.getByTestId("security-question")).toHaveText("Город детства?");

  await main.getByRole("button", { name: "Delete question" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete question" }).click();
  await expect(main.getByRole("status").filter({ hasText: "Your security question is deleted." })).toBeVisible();
  await expect(main.getByText("No security question is set.")).toBeVisible();
});

test("the administrator makes an account untouchable, ends it, and edits its properties", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInAsAdmin(page);
  const user = new UserDetailPage(page);
  await user.goto(person.sub);
  const card = page.getByRole("region", { name: "Account security" });
  await expect(card.getByTestId("account-state")).toHaveText("Initial: has not signed in yet.");
  await expect(card.getByText("The inactivity lock is off (IDP_INACTIVITY_LOCK_DAYS=0).")).toBeVisible();
  await expect(card.getByTestId("security-question")).toHaveText("Not set.");

  await card.getByLabel("Untouchable until (empty: for ever)").fill("2099-12-31");
  await card.getByRole("button", { name: "Make untouchable" }).click();
  await expect(card.getByTestId("account-state")).toContainText("Untouchable until");
  await expect(card.getByLabel("Untouchable until (empty: for ever)")).toHaveValue("");
  await card.getByRole("button", { name: "Make untouchable" }).click();
  await expect(card.getByTestId("account-state")).toHaveText("Untouchable: never locked for inactivity.");
  await card.getByRole("button", { name: "End exemption" }).click();
  await expect(card.getByTestId("account-state")).toHaveText("Initial: has not signed in yet.");

  await expect(card.getByText("No properties.")).toBeVisible();
  await card.getByLabel("Name", { exact: true }).fill("plan");
  await card.getByLabel("Value", { exact: true }).fill("pro");
  await card.getByRole("button", { name: "Add or change" }).click();
  const props = card.getByRole("table", { name: "Properties" });
  await expect(props.getByRole("row", { name: /plan/ })).toContainText('"pro"');
  await card.getByLabel("Name", { exact: true }).fill("seats");
  await card.getByLabel("Type").selectOption("number");
  await card.getByLabel("Value", { exact: true }).fill("many");
  await card.getByRole("button", { name: "Add or change" }).click();
  await expect(card.getByText("Enter a number.")).toBeVisible();
  await card.getByLabel("Value", { exact: true }).fill("5");
  await card.getByRole("button", { name: "Add or change" }).click();
  await expect(props.getByRole("row", { name: /seats/ })).toContainText("5");
  await expectNoSeriousViolations(page, "the user page with its account security card");

  await props.getByRole("button", { name: "Remove plan" }).click();
  await expect(props.getByRole("row", { name: /plan/ })).toHaveCount(0);
  await expect(props.getByRole("row", { name: /seats/ })).toHaveCount(1);
});
