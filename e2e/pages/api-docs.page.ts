import { expect, type Locator, type Page } from "@playwright/test";

/** Scalar's API reference at {ctx}/api/docs: the operation list, its authentication panel and its API client. */
export class ApiDocsPage {
  readonly auth: Locator;
  readonly client: Locator;

  constructor(readonly page: Page) {
    this.auth = page.getByRole("region", { name: "Authentication" }).first();
    this.client = page.getByRole("dialog", { name: "API Client" });
  }

  async goto(): Promise<void> {
    await this.page.goto("api/docs");
    await expect(this.page.getByRole("heading", { name: "Identity Service API", level: 1 })).toBeVisible();
  }

  /** An operation in the sidebar, named by its summary and method as Scalar labels it. */
  operationLink(summary: string, method: string): Locator {
    return this.page.getByRole("button", { name: `${summary} HTTP Method: ${method}`, exact: true });
  }

  /** Fills the client-credentials panel and fetches a token; returns the token endpoint's status. */
  async authorize(clientId: string, secret: string, scope: string): Promise<number> {
    await this.auth.getByText("Client ID :").locator("..").getByRole("textbox").fill(clientId);
    await this.auth.getByRole("textbox", { name: "Client Secret" }).fill(secret);
    await this.auth.getByRole("button", { name: /^Scopes Selected/ }).click();
    await this.auth.getByRole("row", { name: new RegExp(`^${scope} – `) }).getByRole("checkbox").check();
    const answered = this.page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/oauth/te"));
    await this.auth.getByRole("button", { name: "Authorize" }).click();
    return (await answered).status();
  }

  /** Opens an operation of a sidebar group in the API client ("Test Request"). */
  async openInClient(group: string, summary: string, method: string): Promise<void> {
    await this.page.getByRole("button", { name: `${group} Open Group` }).click();
    await this.operationLink(summary, method).click();
    await this.page.getByRole("region", { name: summary }).getByRole("button", { name: /Test Request/ }).click();
    await expect(this.client).toBeVisible();
  }

  /** Types a path parameter's value in the client's Variables table. */
  async setPathParam(name: string, value: string): Promise<void> {
    await this.client.getByRole("region", { name: "Variables" }).locator(`tr#${name}`).getByRole("textbox").nth(1).click();
    await this.page.keyboard.type(value);
  }

  /**
   * Sends the request and returns the answer to `urlSuffix`. Scalar applies a typed value after a
   * short debounce, so a click that comes too early sends the template: it is repeated until the
   * request carries the value.
   */
  async send(method: string, urlSuffix: string): Promise<{ status: number; authorization: string | undefined }> {
    let result: { status: number; authorization: string | undefined } | undefined;
    await expect(async () => {
      const answered = this.page.waitForResponse((r) => r.request().method() === method, { timeout: 2_000 });
      await this.client.getByRole("button", { name: new RegExp(`^Send ${method.toLowerCase()} request`) }).click();
      const res = await answered;
      expect(res.url()).toMatch(new RegExp(`${urlSuffix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
      result = { status: res.status(), authorization: await res.request().headerValue("authorization") ?? undefined };
    }).toPass({ timeout: 15_000 });
    return result!;
  }

  responseBody(): Locator {
    return this.client.getByRole("region", { name: "Body" });
  }
}
