import { expect, type Page } from "@playwright/test";
import { independentTotp } from "../../test/support/independent-otp.ts";

/** The current TOTP code of a key as shown on the page (spaces allowed), computed as a phone would, by code that is not ours. */
export const totp = (key: string, at?: Date) => independentTotp(key, { at });

/**
 * On the portal's two-factor page: adds an authenticator app from the key shown, which turns the
 * second factor on in the same step, and puts the backup codes shown away; the key.
 */
export async function turnOnSecondFactor(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Add an authenticator app" }).click();
  const key = (await page.getByTestId("otp-secret").textContent()) ?? "";
  await page.getByLabel("Code the app shows").fill(totp(key));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Authenticator added, and two-factor sign-in is on.")).toBeVisible();
  await expect(page.getByTestId("second-factor-state")).toHaveText("Two-factor sign-in is on.");
  await page.getByRole("button", { name: "I have saved them" }).click();
  return key;
}
