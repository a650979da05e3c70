import { expect, test } from "@playwright/test";
import { SignInPage } from "./pages/sign-in.page.ts";
import { ADMIN_LOGIN, requestToken, signInAsAdmin, uniqueClientId } from "./support/admin.ts";

test("the clients page sends a signed-out visitor straight to the service's sign-in page", async ({ page }) => {
  await page.goto("console/clients");
  await new SignInPage(page).expectSentToSignIn();
});

test("a wrong password is refused on the service's sign-in page", async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, "not-the-password");
  await expect(signIn.idp.error).toContainText("Wrong username or password.");
  await signIn.idp.expectShown();
  // The password never travels in a URL, and the console never sees it.
  expect(page.url()).not.toContain("not-the-password");
  await expect(page.locator("form").filter({ has: signIn.idp.password })).toHaveAttribute("method", "post");
});

test("the server's field errors appear next to the fields", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  await clients.create({ id: "bad id!", name: "Broken", scopes: "idp_api_sys_users", redirectUris: "not-a-url" });
  await expect(clients.dialog.getByLabel("Client id")).toHaveAccessibleDescription(/client id is 1-128/);
  await expect(clients.dialog.getByLabel("Redirect URIs", { exact: true })).toHaveAccessibleDescription(/must be an absolute URL/);
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

  await clients.goto();
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

  // Signed out of the console and of the service: back on the service's sign-in page, not signed in again.
  await clients.signOut();
  const signIn = new SignInPage(page);
  await signIn.expectSentToSignIn();
  await page.goto("console/clients");
  await signIn.expectSentToSignIn();
});

test("rotating a secret shows the new one once and retires the old one", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const id = uniqueClientId();
  await clients.create({ id, name: `E2E ${id}`, scopes: "idp_api_sys_users" });
  const first = await clients.takeOneTimeSecret();

  await clients.goto();
  await clients.rotateSecret(id);
  const second = await clients.takeOneTimeSecret();
  expect(second).not.toBe(first);

  expect((await requestToken(request, id, first)).status()).toBe(401);
  expect((await requestToken(request, id, second)).status()).toBe(200);
});

test("the OAuth 2.0 and OpenID Connect settings of a client are set in the form and refused field by field", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  const id = uniqueClientId();
  const form = clients.dialog.filter({ has: page.getByRole("heading", { name: "New client application" }) });
  await expect(async () => {
    await page.getByRole("button", { name: "New client" }).click();
    await expect(form).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await form.getByRole("radio", { name: "Web application" }).check();
  await form.getByLabel("Client id").fill(id);
  await form.getByLabel("Name").fill(`OIDC ${id}`);
  await expect(form.getByLabel("client_credentials")).not.toBeChecked();
  await expect(form.getByLabel("authorization_code")).toBeChecked();
  await form.getByLabel("refresh_token").uncheck();
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByLabel("Redirect URIs", { exact: true })).toHaveAccessibleDescription(/needs at least one redirect URI/);
  // The cursor goes to the field refused.
  await expect(form.getByLabel("Redirect URIs", { exact: true })).toBeFocused();

  await form.getByLabel("Redirect URIs", { exact: true }).fill("https://rp.example.com/cb");
  await form.getByLabel("First-party application (no consent screen)").check();
  await form.getByLabel("Access token lifetime, s").fill("10");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByLabel("Access token lifetime, s")).toHaveAccessibleDescription(/at least 60 seconds/);
  await expect(form.getByLabel("Access token lifetime, s")).toBeFocused();

  await form.getByLabel("Access token lifetime, s").fill("600");
  await form.getByLabel("Post-logout redirect URIs").fill("https://rp.example.com/bye");
  await form.getByRole("button", { name: "Create" }).click();
  await clients.takeOneTimeSecret();

  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = clients.dialog.filter({ has: page.getByRole("heading", { name: `Edit ${id}` }) });
  await expect(edit.getByLabel("authorization_code")).toBeChecked();
  await expect(edit.getByLabel("client_credentials")).not.toBeChecked();
  await expect(edit.getByLabel("First-party application (no consent screen)")).toBeChecked();
  await expect(edit.getByLabel("Access token lifetime, s")).toHaveValue("600");
  await expect(edit.getByLabel("Post-logout redirect URIs")).toHaveValue("https://rp.example.com/bye");
  await expect(edit.getByText("confidential (has a secret)")).toBeVisible();
});

test("the console's and the portal's own clients are listed as built-in, with nothing to change", async ({ page }) => {
  const clients = await signInAsAdmin(page);
  for (const id of ["idp-console", "idp-portal"]) {
    await clients.searchFor(id);
    await expect(clients.row(id)).toContainText("built-in");
    await expect(clients.row(id).getByRole("button")).toHaveCount(0);
  }
});

test("dynamic registration is switched on in the form, and an instance then registers under the client", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const id = uniqueClientId();
  const form = await clients.openNew();
  await form.getByLabel("Client id").fill(id);
  await form.getByLabel("Name").fill(`Mobile ${id}`);
  await clients.pickScopes(form, "System scopes", "idp_api_sys_users");
  await form.getByLabel("Redirect URIs", { exact: true }).fill("https://mobile.example.com/cb");
  await form.getByLabel("client_credentials").check();
  await form.getByLabel("Dynamic registration: software ids").fill("ios-app, android-app");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByLabel("Dynamic registration: software ids")).toHaveAccessibleDescription(/idp_dyn_reg scope/);

  const picker = clients.scopePicker(form, "System scopes");
  await picker.getByRole("checkbox", { name: "idp_api_sys_users", exact: true }).uncheck();
  await picker.getByRole("checkbox", { name: "idp_dyn_reg", exact: true }).check();
  await form.getByRole("button", { name: "Create" }).click();
  const secret = await clients.takeOneTimeSecret();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(clients.dialog.getByLabel("Dynamic registration: software ids")).toHaveValue("ios-app android-app");

  const token = await requestToken(request, id, secret, "idp_dyn_reg");
  expect(token.status()).toBe(200);
  const registered = await request.post("oauth/register", {
    headers: { authorization: `Bearer ${(await token.json()).access_token}` },
    data: { software_id: "android-app", token_endpoint_auth_method: "none" },
  });
  expect(registered.status()).toBe(201);
  expect(await registered.json()).toMatchObject({ redirect_uris: ["https://mobile.example.com/cb"], software_id: "android-app" });
});
