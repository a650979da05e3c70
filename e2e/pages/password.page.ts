import { expect, type Locator, type Page } from "@playwright/test";
import { PortalSectionPage } from "./portal-sections.page.ts";

/** The portal's change-password page ({ctx}/account/password). */
export class PortalPasswordPage extends PortalSectionPage {
  readonly current: Locator;
  readonly next: Locator;
  readonly repeat: Locator;
  readonly submit: Locator;
  readonly problems: Locator;

  constructor(page: Page) {
    super(page);
    this.current = page.getByLabel("Current password");
    this.next = page.getByLabel("New password", { exact: true });
    this.repeat = page.getByLabel("New password again");
    this.submit = page.getByRole("button", { name: "Change password" });
    this.problems = page.getByTestId("policy-problems");
  }

  async change(current: string, next: string, repeat = next): Promise<void> {
    await this.current.fill(current);
    await this.next.fill(next);
    await this.repeat.fill(repeat);
    await this.submit.click();
  }

  async expectChanged(): Promise<void> {
    await expect(this.page.getByRole("status").filter({ hasText: "Your password is changed." })).toBeVisible();
  }
}

/** The console's password policy page ({ctx}/console/password-policy). */
export class PasswordPolicyPage {
  readonly heading: Locator;
  readonly minLength: Locator;
  readonly minLengthWithSecondFactor: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Password policy", level: 1 });
    this.minLength = page.getByLabel("Minimum length without a second factor");
    this.minLengthWithSecondFactor = page.getByLabel("Minimum length with the second factor on");
    this.save = page.getByRole("button", { name: "Save policy" });
  }

  async goto(): Promise<void> {
    await this.page.goto("console/password-policy");
    await expect(this.heading).toBeVisible();
  }

  async expectSaved(): Promise<void> {
    await expect(this.page.getByRole("status").filter({ hasText: "The policy is saved" })).toBeVisible();
  }
}
