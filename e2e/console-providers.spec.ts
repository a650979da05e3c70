import { expect, test } from "@playwright/test";
import { startExternalProvider, type TExternalProvider } from "../test/support/external-provider.ts";
import { ProvidersPage } from "./pages/providers.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { consoleClientToken, signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";

// panva's oidc-provider on a loopback port: the external provider the discovery test reaches.
let op: TExternalProvider;
test.beforeAll(async () => {
  op = await startExternalProvider();
});
test.afterAll(async () => op?.close());

test("a provider is created after testing discovery, its secret stays write-only, a user's binding is unlinked, and it is deleted", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const providers = new ProvidersPage(page);
  await providers.goto();
  await expectNoSeriousViolations(page, "providers page");

  const name = `corp-${uniqueTag()}`;
  const label = `oidc:${name}`;
  const form = await providers.openNew();
  const failed = await providers.testDiscovery(form, `${op.issuer}/nope`);
  await expect(failed).toContainText("Discovery failed: the provider answered HTTP 404");
  const found = await providers.testDiscovery(form, op.issuer);
  await expect(found).toContainText("Discovery succeeded.");
  await expect(found).toContainText(`${op.issuer}/auth`);
  await expect(found).toContainText(`${op.issuer}/jwks`);
  await expectNoSeriousViolations(page, "new provider form with a discovery result");

  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Client ID", { exact: true }).fill("idp-at-corp");
  await form.getByLabel("Client secret", { exact: true }).fill("e2e-secret-value");
  await form.getByLabel("Offer at sign-in").check();
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole("main").getByText(`Provider ${label} saved.`)).toBeVisible();
  await expect(providers.row(label)).toContainText("offered at sign-in");
  await expect(providers.row(label)).toContainText(op.issuer);
  await expect(page.getByText("e2e-secret-value")).toHaveCount(0);

  // The secret is write-only: editing shows only that one is set, until "Set new secret".
  const edit = await providers.openEdit(label);
  await expect(edit.getByText("A secret is set.")).toBeVisible();
  await expect(edit.getByLabel("Client secret", { exact: true })).toHaveCount(0);
  await edit.getByRole("button", { name: "Set new secret" }).click();
  await expect(edit.getByLabel("Client secret", { exact: true })).toHaveValue("");
  await edit.getByLabel("Client secret", { exact: true }).fill("e2e-secret-rotated");
  await edit.getByLabel("Remember the provider's tokens").check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(providers.row(label)).toContainText("remembers tokens");

  // A user bound to it through the REST API: the user page lists the binding, and unlinks it.
  const sub = `fa-${uniqueTag()}`;
  const users = new UsersPage(page);
  await users.goto();
  await users.create({ sub });
  const token = await consoleClientToken(clients, request, ["idp_api_sys_ufa_chg"]);
  const bound = await request.post(`api/v3/users/${sub}/fa/oidc/${name}/ext-42`, { headers: { authorization: `Bearer ${token}` }, data: { federatedAccountName: "ivan@corp" } });
  expect(bound.status()).toBe(204);
  const detail = new UserDetailPage(page);
  await detail.goto(sub);
  const card = page.getByRole("region", { name: "External accounts" });
  await expect(card.getByRole("row").filter({ hasText: "ext-42" })).toContainText("ivan@corp");
  await expectNoSeriousViolations(page, "user page with external accounts");
  await card.getByRole("button", { name: "Unlink ext-42" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unlink" }).click();
  await expect(card.getByText("External account ext-42 unlinked.")).toBeVisible();
  await expect(card.getByText("No external account is bound.")).toBeVisible();

  await providers.goto();
  await providers.row(label).getByRole("button", { name: `Delete ${label}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("main").getByText(`Provider ${label} deleted.`)).toBeVisible();
  await expect(providers.row(label)).toHaveCount(0);
});

test("the providers page speaks Russian when asked and passes axe in both languages, light and dark", async ({ page }) => {
  await signInAsAdmin(page);
  await new ProvidersPage(page).goto();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const lang of ["en", "ru"] as const) {
      await page.context().addCookies([{ name: "idp_lang", value: lang, domain: new URL(page.url()).hostname, path: "/" }]);
      await page.goto("console/providers");
      await expect(page.getByRole("heading", { level: 1, name: lang === "ru" ? "Внешние провайдеры" : "External providers" })).toBeVisible();
      await page.getByRole("button", { name: lang === "ru" ? "Новый провайдер" : "New provider" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoSeriousViolations(page, `providers page with the form (${lang}, ${scheme})`);
      await page.keyboard.press("Escape");
    }
  }
});
