import { expect, test, type Page } from "@playwright/test";
import { SignInPage } from "./pages/sign-in.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { expectDashboard, signInAsAdmin } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD } from "./support/portal.ts";
import { makeAttestationKey, metadataPayload } from "../test/support/attestation-certs.ts";

// The console's passkey policy page: an administrator sets the policy and sees it kept; requiring
// passkeys of console users needs one of their own (enrolled in the portal with Chromium's virtual
// authenticator); then a console user without one is sent to the portal to enrol before the console opens.

async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function addPasskey(page: Page, name: string): Promise<void> {
  const add = page.getByRole("form", { name: "Add a passkey" });
  await add.getByLabel("Name of the new passkey").fill(name);
  await add.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Passkey ${name} added.` })).toBeVisible();
}

/** The portal's passkeys page in a browser signed in to the service already: the portal's "Sign in" goes straight through. */
async function openPortalPasskeys(page: Page): Promise<void> {
  const signIn = page.getByRole("button", { name: "Sign in" });
  const heading = page.getByRole("heading", { name: "Passkeys", level: 1 });
  await expect(signIn.or(heading)).toBeVisible();
  if (await signIn.isVisible()) await signIn.click();
  await expect(heading).toBeVisible();
}

async function savePolicy(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The policy is saved" })).toBeVisible();
}

test("an administrator sets the passkey policy, and a console user without a passkey enrols one before the console opens", async ({ page, browser }) => {
  const person = await createPerson(browser, "Политикова");
  await signInAsAdmin(page);
  await page.getByRole("navigation").getByRole("button", { name: "Security" }).click();
  await page.getByRole("link", { name: "Passkey policy" }).click();
  await expect(page.getByRole("heading", { name: "Passkey policy", level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, "the passkey policy page");

  await page.getByLabel("Offer passkeys (people may add them in their account)").uncheck();
  await page.getByLabel("Allowed authenticators").selectOption("cross-platform");
  await page.getByLabel("User verification when adding a passkey").selectOption("preferred");
  await savePolicy(page);
  await page.reload();
  await expect(page.getByLabel("Offer passkeys (people may add them in their account)")).not.toBeChecked();
  await expect(page.getByLabel("Allowed authenticators")).toHaveValue("cross-platform");
  await expect(page.getByLabel("User verification when adding a passkey")).toHaveValue("preferred");

  // Uploaded metadata names its models as text: markup in a description is shown, never run.
  const key = await makeAttestationKey();
  const payload = metadataPayload([{ aaguid: "0a1b2c3d-0000-4000-8000-00000000e2e0", description: "<img src=x onerror=\"window.__xss=1\"> Key", rootDer: key.rootDer }]);
  await page.getByLabel("Upload metadata (MDS3 BLOB or its JSON)").setInputFiles({ name: "mds.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(payload)) });
  await expect(page.getByRole("status").filter({ hasText: "Metadata uploaded: 1 authenticator models." })).toBeVisible();
  await page.getByLabel("Attestation", { exact: true }).selectOption("direct");
  await expect(page.getByLabel('<img src=x onerror="window.__xss=1"> Key (0a1b2c3d-0000-4000-8000-00000000e2e0)')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await page.getByLabel("Attestation", { exact: true }).selectOption("none");
  // A file that is not metadata is refused in words.
  await page.getByLabel("Upload metadata (MDS3 BLOB or its JSON)").setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{\"no\": 1}") });
  await expect(page.getByRole("alert").filter({ hasText: "The file is not usable FIDO metadata." })).toBeVisible();

  // Not offered: the portal says so instead of offering to add one.
  await page.goto("account/passkeys");
  await openPortalPasskeys(page);
  await expect(page.getByText("Adding passkeys is turned off by your administrator.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Add a passkey" })).toHaveCount(0);

  // Required of console users: refused while the administrator has no passkey of their own.
  await page.goto("console/passkey-policy");
  await page.getByLabel("Offer passkeys (people may add them in their account)").check();
  await page.getByLabel("Allowed authenticators").selectOption("any");
  await page.getByLabel("Require a passkey of console users before the console opens").check();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Add a passkey to your own account first" })).toBeVisible();
  await page.getByLabel("Require a passkey of console users before the console opens").uncheck();
  await savePolicy(page);

  await virtualAuthenticator(page);
  await page.goto("account/passkeys");
  await openPortalPasskeys(page);
  await addPasskey(page, "Admin laptop");
  await page.goto("console/passkey-policy");
  await page.getByLabel("Require a passkey of console users before the console opens").check();
  await savePolicy(page);

  // A new auditor signs in to the console and is sent to the portal to enrol first.
  await new UserDetailPage(page).goto(person.sub);
  const roles = page.getByRole("region", { name: "Console roles" });
  await roles.getByLabel(/^Auditor/).check();
  await roles.getByRole("button", { name: "Save roles" }).click();
  await expect(roles.getByRole("status")).toHaveText("Roles saved.");

  const auditorContext = await browser.newContext();
  const auditor = await auditorContext.newPage();
  await virtualAuthenticator(auditor);
  const signIn = new SignInPage(auditor);
  await signIn.goto();
  await signIn.signIn(person.sub, PERSON_PASSWORD);
  await expect(auditor).toHaveURL(/\/account\/passkeys\?for=console$/);
  await openPortalPasskeys(auditor);
  await expect(auditor.getByText("The console asks its administrators to have a passkey")).toBeVisible();
  await addPasskey(auditor, "Auditor laptop");
  await auditor.goto("console/dashboard");
  await expectDashboard(auditor);
  await auditorContext.close();

  // Back to the default, for the specs after this one.
  await page.goto("console/passkey-policy");
  await page.getByLabel("Require a passkey of console users before the console opens").uncheck();
  await page.getByLabel("User verification when adding a passkey").selectOption("required");
  await savePolicy(page);
});
