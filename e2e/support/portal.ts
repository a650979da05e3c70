import { expect, type Browser, type Page } from "@playwright/test";
import { PortalSectionPage } from "../pages/portal-sections.page.ts";
import { UsersPage } from "../pages/users.page.ts";
import { signInAsAdmin, uniqueTag } from "./admin.ts";

export const PERSON_PASSWORD = "portal-e2e-password-7";

export type TPerson = { sub: string; email: string };

/**
 * A person with a password and a confirmed e-mail, created by an administrator in the console in a
 * browser of the administrator's own (a browser signed in as the administrator would be the
 * administrator in the portal too: one sign-in serves every application of the service).
 */
export async function createPerson(browser: Browser, familyName = "Порталов"): Promise<TPerson> {
  const tag = uniqueTag();
  const person = { sub: `portal-${tag}`, email: `portal.${tag}@example.org` };
  const context = await browser.newContext();
  const admin = await context.newPage();
  await signInAsAdmin(admin);
  const users = new UsersPage(admin);
  await users.goto();
  await users.create({ sub: person.sub, familyName, email: person.email, emailConfirmed: true, password: PERSON_PASSWORD });
  await context.close();
  return person;
}

/** Opens a portal address without a session, signs in through the service's login page, and lands back there. */
export async function signInToPortal(page: Page, login: string, section = ""): Promise<PortalSectionPage> {
  const portal = new PortalSectionPage(page);
  const path = section ? `account/${section}` : "account";
  await portal.goto(path);
  await expect(portal.nav).toHaveCount(0);
  await portal.signIn(login, PERSON_PASSWORD);
  await expect(page).toHaveURL(new RegExp(`/${path}$`));
  await portal.expectSignedIn(login);
  return portal;
}
