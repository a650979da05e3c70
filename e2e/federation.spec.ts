import { expect, test, type Browser } from "@playwright/test";
import { FEDERATION_CLIENT, startFederationProvider, type TFederationProvider } from "../test/support/external-provider.ts";
import { ExternalProviderPage } from "./pages/external-provider.page.ts";
import { LinkedAccountsPage } from "./pages/linked-accounts.page.ts";
import { PortalPage } from "./pages/portal.page.ts";
import { ProvidersPage } from "./pages/providers.page.ts";
import { signInAsAdmin, uniqueTag } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, signInToPortal } from "./support/portal.ts";

// panva's oidc-provider on a loopback port is the external provider; its client's redirect URI is the
// service's callback. The administrator configures it in the console, a person links an account in
// the portal through the provider's own login page, signs out, and signs in with that account.

let op: TFederationProvider;
const name = `ext-${uniqueTag()}`;

test.beforeAll(async () => {
  op = await startFederationProvider({ redirectUris: [`${process.env.E2E_BASE_URL!.replace(/\/$/, "")}/fa/callback`] });
});

/** The console in an administrator's browser of its own (one sign-in serves every application of the service). */
async function asAdmin(browser: Browser, act: (providers: ProvidersPage) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsAdmin(page);
  const providers = new ProvidersPage(page);
  await providers.goto();
  await act(providers);
  await context.close();
}

test.afterAll(async ({ browser }) => {
  // The provider is offered on every sign-in page of the shared server: it goes with the spec.
  await asAdmin(browser, async (providers) => {
    await providers.row(`oidc:${name}`).getByRole("button", { name: `Delete oidc:${name}` }).click();
    // "Delete with bindings": the person's account is still linked to it.
    await providers.page.getByRole("dialog").getByRole("button", { name: /^Delete/ }).click();
    await expect(providers.row(`oidc:${name}`)).toHaveCount(0);
  });
  await op?.close();
});

test("a person links an external account in the portal at the provider's own login page, then signs in with it", async ({ page, browser }) => {
  await asAdmin(browser, async (providers) => {
    const form = await providers.openNew();
    await expect(await providers.testDiscovery(form, op.issuer)).toContainText("Discovery succeeded.");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByLabel("Client ID", { exact: true }).fill(FEDERATION_CLIENT.id);
    await form.getByLabel("Client secret", { exact: true }).fill(FEDERATION_CLIENT.secret);
    await form.getByLabel("Scopes", { exact: true }).fill("openid profile email");
    await form.getByLabel("Offer at sign-in").check();
    await form.getByRole("button", { name: "Create" }).click();
    await expect(form).toBeHidden();
    await expect(providers.row(`oidc:${name}`)).toContainText("offered at sign-in");
  });

  const person = await createPerson(browser);
  const portal = await signInToPortal(page, person.sub, "linked-accounts");
  const linked = new LinkedAccountsPage(page);
  await linked.expectShown();
  await expect(page.getByText("No account is linked yet.")).toBeVisible();
  await expectNoSeriousViolations(page, "linked accounts page");

  // Linking: to the provider's own login page and back, with the outcome said on the page.
  const sid = `ivan-${uniqueTag()}`;
  const external = new ExternalProviderPage(page, op.issuer);
  await linked.link(name);
  await external.signIn(sid);
  await linked.expectShown();
  await expect(linked.status("The account is linked.")).toBeVisible();
  await expect(linked.row(sid)).toContainText(name);
  await expect(page).toHaveURL(/\/account\/linked-accounts$/);
  await expectNoSeriousViolations(page, "linked accounts page with an account");

  // Signed out, the person signs in with the external account from the service's sign-in page.
  await portal.signOut();
  await portal.expectSignInShown();
  await portal.signInButton.click();
  await portal.idp.expectShown();
  await expect(portal.idp.externalButton(name)).toBeVisible();
  await expectNoSeriousViolations(page, "sign-in page offering an external provider");
  await portal.idp.externalButton(name).click();
  await external.allowIfAsked();
  await portal.expectSignedIn(person.sub);

  // An external account bound to nobody (a browser of its own): the page that links it by password.
  const context = await browser.newContext();
  const stranger = new PortalPage(await context.newPage());
  await stranger.goto();
  await stranger.signInButton.click();
  await stranger.idp.externalButton(name).click();
  await new ExternalProviderPage(stranger.page, op.issuer).signIn(`nobody-${uniqueTag()}`);
  await expect(stranger.page).toHaveURL(/\/login\/fa\/link\?flow=/);
  await expect(stranger.page.getByText(`Your ${name} account`)).toContainText("is not linked to an account here yet");
  await expect(stranger.idp.identifier).toBeVisible();
  await expectNoSeriousViolations(stranger.page, "page linking an external account by password");
  await context.close();
});
