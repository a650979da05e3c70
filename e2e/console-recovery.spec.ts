import { expect, test, type Page } from "@playwright/test";
import { LoginPage } from "./pages/login.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { mailTo } from "./support/mail.ts";
import { createPerson, PERSON_PASSWORD } from "./support/portal.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// "Send recovery message…" on a user's page: the person gets a link at their confirmed e-mail (read
// from the run's SMTP server), sets a new password on the page it opens (in the message's language),
// and signs in with it; the link does not work twice. Axe in both colour schemes.

async function checkBothSchemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${what} (${colorScheme})`);
  }
}

const NEW_PASSWORD = "a passphrase set from the link";

test("an administrator sends a recovery message; the person sets a new password from its link and signs in", async ({ browser, page }) => {
  const person = await createPerson(browser);
  const clients = await signInAsAdmin(page);
  const rp = await createRelyingParty(clients);
  const detail = new UserDetailPage(page);
  await detail.goto(person.sub);
  await page.getByRole("button", { name: "Send recovery message…" }).click();
  const dialog = page.getByRole("dialog", { name: "Send a recovery message" });
  await expect(dialog.getByLabel("Send to")).toHaveValue("email");
  await dialog.getByLabel("Language of the message").selectOption("ru");
  await checkBothSchemes(page, "the send recovery message dialog");
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("main").getByText(/A recovery message was sent to p\*\*\*@example\.org/)).toBeVisible();

  await expect.poll(() => mailTo(person.email).filter((m) => m.subject === "Восстановление доступа к учётной записи").length).toBe(1);
  const link = /(https?:\/\/\S+\/login\/recover\/link\?\S+)/.exec(mailTo(person.email).find((m) => m.subject === "Восстановление доступа к учётной записи")!.text)![1]!;

  const other = await (await browser.newContext()).newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "Новый пароль", level: 1 })).toBeVisible();
  await checkBothSchemes(other, "the recovery link page (ru)");
  await other.getByLabel("Новый пароль", { exact: true }).fill(NEW_PASSWORD);
  await other.getByLabel("Новый пароль ещё раз").fill("something else entirely");
  await other.getByRole("button", { name: "Сохранить пароль" }).click();
  await expect(other.getByRole("alert")).toContainText("Пароли не совпадают");
  await checkBothSchemes(other, "the recovery link page with a refusal (ru)");
  await other.getByLabel("Новый пароль", { exact: true }).fill(NEW_PASSWORD);
  await other.getByLabel("Новый пароль ещё раз").fill(NEW_PASSWORD);
  await other.getByRole("button", { name: "Сохранить пароль" }).click();
  await expect(other.getByRole("status")).toHaveText("Новый пароль сохранён. Войдите с ним.");

  // The old password no longer signs in; the new one does. The link does not work twice.
  await other.goto(authorizePath(rp, { ui_locales: "en" }));
  const login = new LoginPage(other, "en");
  await login.signIn(person.sub, PERSON_PASSWORD);
  await expect(login.error).toHaveText("Wrong username or password.");
  await login.signIn(person.sub, NEW_PASSWORD);
  await expect(other).toHaveURL(/\/consent\?flow=|e2e-callback\?code=/);
  const used = await other.goto(link);
  expect(used?.status()).toBe(410);
  await expect(other.getByRole("alert")).toContainText("Срок действия ссылки истёк");
});
