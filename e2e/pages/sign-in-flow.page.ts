import { createHash, randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";

export type TRelyingParty = { clientId: string; redirectUri: string; scope: string };

/**
 * An end user's browser signing in to an application through the service's own pages: the
 * authorization request, the sign-in form ({ctx}/login) and the consent form. The application's
 * redirect URI is answered by the test itself, so no application has to run.
 */
export class SignInFlow {
  /** The PKCE verifier of the request start() sends. */
  readonly verifier = randomBytes(32).toString("base64url");

  constructor(
    readonly page: Page,
    readonly rp: TRelyingParty,
  ) {}

  /** Answers the application's callback with a blank page instead of the network. */
  async interceptCallback(): Promise<void> {
    await this.page.route(`${new URL(this.rp.redirectUri).origin}/**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>callback</title>" }));
  }

  async start(state = "e2e-state"): Promise<void> {
    // PKCE, as every client must send it; whoever redeems the code sends `verifier`.
    const code_challenge = createHash("sha256").update(this.verifier).digest("base64url");
    const q = new URLSearchParams({ response_type: "code", client_id: this.rp.clientId, redirect_uri: this.rp.redirectUri, scope: this.rp.scope, state, code_challenge, code_challenge_method: "S256" });
    await this.page.goto(`oauth/ae?${q}`);
  }

  async expectSignInForm(): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  }

  async submitCredentials(identifier: string, password: string): Promise<void> {
    await this.page.getByLabel("Username, e-mail or phone").fill(identifier);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in", exact: true }).click();
  }

  async expectRefused(): Promise<void> {
    await expect(this.page.getByText("Wrong username or password.")).toBeVisible();
  }

  async expectConsentForm(): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Allow access", level: 1 })).toBeVisible();
  }

  async allow(): Promise<void> {
    await this.page.getByRole("button", { name: "Allow" }).click();
  }

  /** The code the service sent the browser back to the application with. */
  async codeFromCallback(): Promise<string> {
    await this.page.waitForURL((url) => url.href.startsWith(this.rp.redirectUri));
    const url = new URL(this.page.url());
    const code = url.searchParams.get("code");
    expect(code, `a code in ${url}`).toBeTruthy();
    return code!;
  }
}
