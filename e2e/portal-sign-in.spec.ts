import { expect, test, type Browser, type Page } from "@playwright/test";
import { PortalPage } from "./pages/portal.page.ts";
import { SignInPage } from "./pages/sign-in.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { ADMIN_LOGIN, adminPassword, signInAsAdmin, uniqueTag } from "./support/admin.ts";

type TPerson = { sub: string; password: string; givenName: string; familyName: string; email: string; phone: string };

/** An ordinary account, made by an administrator in the console's Users page: e-mail confirmed, phone not. */
async function createPerson(page: Page): Promise<TPerson> {
  const tag = uniqueTag();
  const digits = String(Date.now()).slice(-7);
  const person = {
    sub: `person-${tag}`,
    password: `pw-${tag}-long-enough`,
    givenName: "Anna",
    familyName: `Portalova ${tag}`,
    email: `${tag}@example.org`,
    phone: `7916${digits}`,
  };
  await signInAsAdmin(page);
  const users = new UsersPage(page);
  await users.goto();
  await users.create({ ...person, emailConfirmed: true });
  return person;
}

/** A browser of the person's own: no cookie of the administrator's. */
async function ownBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: "en-US" });
  return context.newPage();
}

/** A new person, signed in to the portal from a browser of their own, on the overview. */
async function personInPortal(page: Page, browser: Browser): Promise<{ person: TPerson; own: Page; portal: PortalPage }> {
  const person = await createPerson(page);
  const own = await ownBrowser(browser);
  const portal = new PortalPage(own);
  await portal.goto();
  await portal.signIn(person.sub, person.password);
  await portal.expectOverview();
  return { person, own, portal };
}

test("a person signs in to the portal at the service's sign-in page and sees their account", async ({ page, browser }) => {
  const { person, own, portal } = await personInPortal(page, browser);

  await expect(portal.fact("portal-user-name")).toHaveText(`${person.givenName} ${person.familyName}`);
  await expect(portal.fact("portal-user-sub")).toHaveText(person.sub);
  await expect(portal.fact("overview-sub")).toHaveText(person.sub);
  await expect(portal.fact("overview-name")).toHaveText(`${person.familyName} ${person.givenName}`);
  await expect(portal.fact("overview-email")).toHaveText(person.email);
  await expect(portal.fact("overview-email-state")).toHaveText("confirmed");
  await expect(portal.fact("overview-phone")).toHaveText(`+7 916 ${person.phone.slice(4, 7)}-${person.phone.slice(7, 9)}-${person.phone.slice(9)}`);
  await expect(portal.fact("overview-phone-state")).toHaveText("not confirmed");

  for (const name of ["Overview", "Profile", "Devices", "Consents", "Events"]) await expect(portal.nav.getByRole("link", { name })).toBeVisible();
  await expect(portal.nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await own.context().close();
});

test("signing out of the portal ends the service's session too: the next sign-in asks for the password", async ({ page, browser }) => {
  const { own, portal } = await personInPortal(page, browser);

  await portal.signOut();
  await expect(own).toHaveURL(/\/account$/);
  await portal.expectSignInShown();
  await portal.signInButton.click();
  await portal.idp.expectShown();
  await expect(portal.idp.password).toBeEmpty();
  await own.context().close();
});

test("the console refuses a person who is not an administrator in words, and lets an administrator sign in instead", async ({ page, browser }) => {
  const person = await createPerson(page);
  const own = await ownBrowser(browser);
  const signIn = new SignInPage(own);
  await signIn.goto();
  await signIn.signIn(person.sub, person.password);
  await expect(own).toHaveURL(/\/console\/sign-in\?error=not_admin$/);
  await expect(signIn.error).toHaveText("The account you signed in with is not an administrator. Sign in with an administrator's account.");
  // Still signed in at the service as the person: opening the console goes there and straight back refused…
  await own.goto("console/clients");
  await signIn.expectShown();
  await expect(own).toHaveURL(/\/console\/sign-in\?error=not_admin$/);
  await expect(signIn.error).toContainText("not an administrator");
  // …and then the button asks the service for a fresh sign-in, where another account can be used.
  await signIn.signIn(ADMIN_LOGIN, adminPassword);
  await expect(own).toHaveURL(/\/console\/dashboard$/);
  await expect(own.getByTestId("signed-in-login")).toHaveText(ADMIN_LOGIN);
  await own.context().close();
});
