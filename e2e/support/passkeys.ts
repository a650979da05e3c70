import { expect, type Page } from "@playwright/test";

/**
 * Chromium's virtual authenticator on this page (DevTools protocol, WebAuthn domain): a platform
 * authenticator with resident keys and user verification, as a laptop's would be, that approves
 * every request at once.
 */
export async function virtualAuthenticator(page: Page): Promise<{ credentials: () => Promise<unknown[]> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials };
}

/**
 * A browser without passkey autofill (conditional mediation): the virtual authenticator answers a
 * quiet request at once, as if the person had picked the passkey, so a test of the button or of the
 * second step turns autofill off to get there.
 */
export async function withoutAutofill(page: Page): Promise<void> {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

/** On the portal's Passkeys page: adds a passkey under the default name, and waits for it to be added. */
export async function addPasskeyInPortal(page: Page): Promise<void> {
  await page.getByRole("form", { name: "Add a passkey" }).getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "added." })).toBeVisible();
}
