import { expect, type Locator, type Page } from "@playwright/test";

/** The service's sign-in page ({ctx}/login) and its QR code waiting page ({ctx}/login/qr). */
export class QrSignInPage {
  readonly identifier: Locator;
  readonly password: Locator;
  readonly useQrCode: Locator;
  readonly qrImage: Locator;
  readonly codeText: Locator;
  readonly status: Locator;
  readonly alert: Locator;
  readonly newCode: Locator;

  constructor(readonly page: Page) {
    this.identifier = page.getByLabel("Username, e-mail or phone");
    this.password = page.getByLabel("Password");
    this.useQrCode = page.getByRole("button", { name: "Use a QR code instead" });
    this.qrImage = page.getByRole("img", { name: "QR code for signing in" });
    this.codeText = page.locator("#qr-code");
    this.status = page.getByRole("status");
    this.alert = page.getByRole("main").getByRole("alert");
    this.newCode = page.getByRole("button", { name: "Show a new QR code" });
  }

  async expectLogin(): Promise<void> {
    await expect(this.page).toHaveURL(/\/login\?flow=/);
    await expect(this.page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  }

  async signIn(identifier: string, password: string): Promise<void> {
    await this.identifier.fill(identifier);
    await this.password.fill(password);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  /** Switches to the QR code and returns the code it shows as text. */
  async showQrCode(): Promise<string> {
    await this.useQrCode.click();
    return this.expectWaiting();
  }

  async expectWaiting(): Promise<string> {
    await expect(this.page).toHaveURL(/\/login\/qr\?flow=/);
    await expect(this.page.getByRole("heading", { name: "Sign in with a QR code", level: 1 })).toBeVisible();
    await expect(this.qrImage).toBeVisible();
    await expect(this.status).toContainText("Waiting for confirmation");
    return (await this.codeText.textContent())!.trim();
  }
}
