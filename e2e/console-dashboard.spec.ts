import { expect, test, type Page } from "@playwright/test";
import { ClientsPage } from "./pages/clients.page.ts";
import { LoginPage } from "./pages/login.page.ts";
import { SignInPage } from "./pages/sign-in.page.ts";
import { ADMIN_LOGIN, adminPassword, expectDashboard } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { authorizePath, createRelyingParty } from "./support/relying-party.ts";

// The console opens on its overview: account figures, live sessions, the outbox, the signing key's
// age, and sign-ins per hour and per day drawn by a chart library, with the same figures in a table
// for screen readers. A failed sign-in made here shows up in the current hour once the page is read again.

/** The current (last) hour's row of the 24-hour chart's table: [signed in, failed]. */
async function currentHour(page: Page): Promise<[number, number]> {
  const rows = page.getByRole("table", { name: "Sign-ins, last 24 hours" }).getByRole("row");
  await expect(rows).toHaveCount(25);
  const cells = await rows.last().getByRole("cell").allTextContents();
  return [Number(cells[0]), Number(cells[1])];
}

test("the console opens on the overview, whose figures follow what happens", async ({ page, browser }) => {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, adminPassword);
  await expectDashboard(page);
  // The overview is the console's home: the brand's link leads there.
  await expect(page.getByRole("link", { name: "Identity console" })).toHaveAttribute("href", /\/console\/dashboard$/);

  const accounts = page.getByRole("link", { name: /^Accounts/ });
  await expect(accounts).toHaveAttribute("href", /\/console\/users$/);
  expect(Number((await accounts.locator(".dash-tile__value").textContent())!.replace(/\D/g, ""))).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole("link", { name: /^Signing key/ })).toContainText(/\d+ days in use/);
  await expect(page.getByRole("figure", { name: "Sign-ins, last 24 hours" }).locator(".recharts-cartesian-grid")).toBeVisible();
  await expect(page.getByRole("figure", { name: "Sign-ins, last 7 days (UTC)" }).locator(".recharts-cartesian-grid")).toBeVisible();
  await expect(page.getByRole("table", { name: "Sign-ins, last 7 days (UTC)" }).getByRole("row")).toHaveCount(8);
  const [signedIn, failed] = await currentHour(page);
  expect(signedIn).toBeGreaterThanOrEqual(1);

  // Someone gets their password wrong through an application; the overview read again counts it.
  const rp = await createRelyingParty(new ClientsPage(page));
  const other = await (await browser.newContext()).newPage();
  await other.goto(authorizePath(rp, { ui_locales: "en" }));
  const login = new LoginPage(other);
  await login.signIn(ADMIN_LOGIN, "not the password");
  await expect(login.error).toHaveText("Wrong username or password.");
  await other.context().close();

  await page.getByRole("link", { name: "Identity console" }).click();
  await expectDashboard(page);
  await expect.poll(async () => (await currentHour(page))[1]).toBe(failed + 1);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `the overview (${colorScheme})`);
  }
});

test("the overview in Russian", async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, adminPassword);
  await expectDashboard(page);
  await page.context().addCookies([{ name: "idp_lang", value: "ru", domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);
  await page.goto("console");
  await expect(page).toHaveURL(/\/console\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Обзор", level: 1 })).toBeVisible();
  await expect(page.getByRole("figure", { name: "Входы за 24 часа" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Ключ подписи/ })).toContainText(/используется дней: \d+/);
  await expectNoSeriousViolations(page, "the overview (ru)");
});
