import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { ClientsPage } from "./pages/clients.page.ts";
import { SignInPage } from "./pages/sign-in.page.ts";

const ADMIN_LOGIN = "admin";
const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? "";

/** RFC 6749 §2.3.1: each part is application/x-www-form-urlencoded before the Basic encoding. */
function basicAuth(id: string, secret: string): string {
  const formEncode = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
  return "Basic " + Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString("base64");
}

function uniqueClientId(): string {
  return `e2e-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
}

function requestToken(request: APIRequestContext, id: string, secret: string) {
  return request.post("oauth/te", {
    headers: { authorization: basicAuth(id, secret), "content-type": "application/x-www-form-urlencoded" },
    data: "grant_type=client_credentials&scope=idp_api_sys_users",
  });
}

async function signInAsAdmin(page: Page): Promise<ClientsPage> {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, adminPassword);
  const clients = new ClientsPage(page);
  await clients.expectShown();
  return clients;
}

test.beforeAll(() => {
  expect(adminPassword, "E2E_ADMIN_PASSWORD (set by scripts/e2e.mjs)").not.toBe("");
});

test("the clients page sends a signed-out visitor to sign-in", async ({ page }) => {
  await page.goto("console/clients");
  await new SignInPage(page).expectShown();
});

test("a wrong password is refused with an error", async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, "not-the-password");
  await expect(signIn.error).toContainText("Wrong login or password");
  await signIn.expectShown();
  // The password never travels in a URL, not even from a submit that escapes the script.
  expect(page.url()).not.toContain("not-the-password");
  await expect(page.locator("form")).toHaveAttribute("method", "post");
});

test("the server's field errors appear next to the fields", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  await clients.create({ id: "bad id!", name: "Broken", scopes: "idp_api_sys_users", redirectUris: "not-a-url" });
  await expect(clients.dialog.getByLabel("Client id")).toHaveAccessibleDescription(/client id is 1-128/);
  await expect(clients.dialog.getByLabel("Redirect URIs")).toHaveAccessibleDescription(/must be an absolute URL/);
  await expect(clients.dialog.getByRole("alert").first()).toBeVisible();
});

test("an administrator creates a client whose one-time secret obtains a token", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  await expect(page.getByTestId("signed-in-login")).toHaveText(ADMIN_LOGIN);

  const id = uniqueClientId();
  await clients.create({ id, name: `E2E ${id}`, scopes: "idp_api_sys_users" });
  const secret = await clients.takeOneTimeSecret();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await expect(page.getByText(secret)).toHaveCount(0);

  await expect(clients.row(id)).toContainText("idp_api_sys_users");
  await clients.searchFor(id.slice(4).toUpperCase());
  await expect(clients.table.getByRole("row")).toHaveCount(2);
  await expect(clients.row(id)).toBeVisible();
  await clients.searchFor(`${id}-absent`);
  await expect(page.getByText(`No client applications match “${id}-absent”.`)).toBeVisible();

  const token = await requestToken(request, id, secret);
  expect(token.status()).toBe(200);
  const body = await token.json();
  expect(body.token_type).toBe("Bearer");
  expect(body.scope).toBe("idp_api_sys_users");
  expect(typeof body.access_token).toBe("string");

  await clients.signOut();
  const signIn = new SignInPage(page);
  await signIn.expectShown();
  await page.goto("console/clients");
  await signIn.expectShown();
});

test("rotating a secret shows the new one once and retires the old one", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const id = uniqueClientId();
  await clients.create({ id, name: `E2E ${id}`, scopes: "idp_api_sys_users" });
  const first = await clients.takeOneTimeSecret();

  await clients.rotateSecret(id);
  const second = await clients.takeOneTimeSecret();
  expect(second).not.toBe(first);

  expect((await requestToken(request, id, first)).status()).toBe(401);
  expect((await requestToken(request, id, second)).status()).toBe(200);
});
