import { expect, test, type Browser, type Page } from "@playwright/test";
import * as client from "openid-client";
import { ConsentPage } from "./pages/consent.page.ts";
import { KIND_LABELS, type TKind } from "./pages/clients.page.ts";
import { LoginPage } from "./pages/login.page.ts";
import { signInAsAdmin, uniqueClientId } from "./support/admin.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD, type TPerson } from "./support/portal.ts";

// "New application" by kind, ending on the application's page: what to copy (client id, secret once,
// endpoints) and a quick start. Each kind is then used for real the way its snippet says, by
// openid-client against the service: a person signs in through a web and a single-page application in
// Chromium; a machine-to-machine application gets a token. Deleting ends what the application held.

const CALLBACK = new URL("e2e-callback", process.env.E2E_BASE_URL!.replace(/\/?$/, "/")).toString();

async function checkBothSchemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${what} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** The value the application's page shows beside a label (a dt/dd pair with a copy button). */
function shown(page: Page, label: string) {
  return page.locator(".app-copy").filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) }).locator("dd code");
}

/** The new-application form filled for a kind; submitted, it leads to the application's page. */
async function createApp(page: Page, kind: TKind, words: { newButton: string; title: string; id: string; name: string; redirects: string; create: string; kind: string }, id: string, fill: (form: ReturnType<Page["getByRole"]>) => Promise<void> = async () => undefined) {
  const form = page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: words.title }) });
  await expect(async () => {
    await page.getByRole("button", { name: words.newButton }).click();
    await expect(form).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await form.getByRole("radio", { name: words.kind }).check();
  await form.getByLabel(words.id).fill(id);
  await form.getByLabel(words.name, { exact: true }).fill(`${kind} ${id}`);
  if (kind !== "m2m") await form.getByLabel(words.redirects, { exact: true }).fill(CALLBACK);
  await fill(form);
  await form.getByRole("button", { name: words.create }).click();
  await expect(page).toHaveURL(new RegExp(`/console/clients/${id}$`));
}

const EN = { newButton: "New client", title: "New client application", id: "Client id", name: "Name", redirects: "Redirect URIs", create: "Create" };

/** The person signs in through the application in a browser of their own; the code comes back to CALLBACK. */
async function signInThrough(browser: Browser, url: URL, person: TPerson): Promise<URL> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url.toString());
  await new LoginPage(page).signIn(person.sub, PERSON_PASSWORD);
  const consent = new ConsentPage(page);
  await consent.expectShown();
  await consent.allow.click();
  await expect(page).toHaveURL(/e2e-callback\?code=/);
  const back = new URL(page.url());
  await page.context().close();
  return back;
}

async function openidClientSignIn(config: client.Configuration, browser: Browser, person: TPerson, scope: string) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
  });
  const back = await signInThrough(browser, url, person);
  return client.authorizationCodeGrant(config, back, { pkceCodeVerifier: codeVerifier, expectedState: state });
}

test("a web application: its page gives the secret once, the endpoints and snippets; openid-client signs a person in; deleting it ends the grant", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInAsAdmin(page);
  const id = uniqueClientId();
  await createApp(page, "web", { ...EN, kind: KIND_LABELS.web }, id, async (form) => {
    await form.getByRole("group", { name: /^User scopes/ }).getByRole("checkbox", { name: "idp_api_user", exact: true }).check();
  });

  const panel = page.getByRole("dialog").filter({ hasText: "it will not be shown again" });
  const secret = await panel.getByLabel("Client secret").inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await panel.getByRole("button", { name: "I have saved it" }).click();
  await expect(page.getByRole("heading", { name: `web ${id}`, level: 1 })).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(shown(page, "Client id")).toHaveText(id);
  const issuer = (await shown(page, "Issuer").textContent())!;
  expect(issuer).toBe(process.env.E2E_BASE_URL!.replace(/\/$/, ""));
  await expect(shown(page, "Token endpoint")).toHaveText(`${issuer}/oauth/te`);
  await expect(shown(page, "Discovery document")).toHaveText(`${issuer}/.well-known/openid-configuration`);

  const quickStart = page.getByRole("tabpanel");
  await expect(page.getByRole("tab", { name: "Node.js (openid-client)" })).toHaveAttribute("aria-selected", "true");
  await expect(quickStart).toContainText(`new URL("${issuer}")`);
  await expect(quickStart).toContainText(`const redirect_uri = "${CALLBACK}";`);
  await expect(quickStart).toContainText(`scope: "openid profile email offline_access idp_api_user"`);
  await page.getByRole("tab", { name: "Node.js (openid-client)" }).press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Next.js (Auth.js)" })).toBeFocused();
  await expect(quickStart).toContainText(`clientId: "${id}"`);
  await checkBothSchemes(page, "a web application's page");

  // The snippet's flow, performed by openid-client with the values the page showed.
  const config = await client.discovery(new URL(issuer), id, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });
  const tokens = await openidClientSignIn(config, browser, person, "openid profile email offline_access idp_api_user");
  expect(tokens.claims()!.sub).toBe(person.sub);
  expect(tokens.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "idp_api_user"]));
  expect((await client.fetchUserInfo(config, tokens.access_token, person.sub)).sub).toBe(person.sub);

  // Deleting names what ends, then ends it.
  await page.getByRole("button", { name: "Delete…" }).click();
  const confirm = page.getByRole("dialog", { name: `Delete web ${id}?` });
  await expect(confirm.getByRole("listitem")).toHaveText(["access tokens it was issued stop working", "active refresh tokens revoked: 1", "consents people gave it removed: 1"]);
  await checkBothSchemes(page, "the delete application dialog");
  await confirm.getByRole("button", { name: "Delete application" }).click();
  await expect(page).toHaveURL(/\/console\/clients\?deleted=/);
  await expect(page.getByRole("main").getByText(`Application ${id} deleted.`)).toBeVisible();
  // Both refused with 401 and a WWW-Authenticate challenge: the client is unknown, its token dead.
  await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ status: 401 });
  await expect(client.fetchUserInfo(config, tokens.access_token, person.sub)).rejects.toMatchObject({ status: 401 });
});

test("a single-page application has no secret, and openid-client signs a person in with PKCE alone (ru)", async ({ browser, page }) => {
  const person = await createPerson(browser);
  await signInAsAdmin(page);
  await page.context().addCookies([{ name: "idp_lang", value: "ru", domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);
  await page.goto("console/clients");
  const id = uniqueClientId();
  const RU = { newButton: "Новый клиент", title: "Новое клиентское приложение", id: "Идентификатор клиента", name: "Название", redirects: "URI перенаправления", create: "Создать" };
  await createApp(page, "spa", { ...RU, kind: "Одностраничное или мобильное приложение" }, id, async (form) => {
    // A public application holds no system scopes: the form does not offer them.
    await expect(form.getByRole("group", { name: /^Системные scope/ })).toHaveCount(0);
  });
  await expect(page.getByRole("heading", { name: `spa ${id}`, level: 1 })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("none: только client id, с PKCE")).toBeVisible();
  await expect(page.getByRole("tab")).toHaveText(["Node.js (openid-client)"]);
  await expect(page.getByRole("tabpanel")).toContainText("client.None()");
  await expect(page.getByRole("button", { name: "Заменить секрет" })).toHaveCount(0);
  await checkBothSchemes(page, "a single-page application's page (ru)");

  const issuer = process.env.E2E_BASE_URL!.replace(/\/$/, "");
  const config = await client.discovery(new URL(issuer), id, { token_endpoint_auth_method: "none" }, client.None(), { execute: [client.allowInsecureRequests] });
  const tokens = await openidClientSignIn(config, browser, person, "openid profile");
  expect(tokens.claims()!.sub).toBe(person.sub);
  expect(tokens.refresh_token).toBeUndefined();
});

test("a machine-to-machine application gets a client-credentials token as its snippet does, and the list shows each kind", async ({ page, request }) => {
  const clients = await signInAsAdmin(page);
  const id = uniqueClientId();
  await createApp(page, "m2m", { ...EN, kind: KIND_LABELS.m2m }, id, async (form) => {
    await expect(form.getByLabel("Redirect URIs", { exact: true })).toHaveCount(0);
    const picker = form.getByRole("group", { name: /^System scopes/ });
    await picker.getByRole("searchbox").fill("sys_users");
    await expect(picker.getByRole("checkbox")).toHaveCount(3);
    await picker.getByRole("checkbox", { name: "idp_api_sys_users", exact: true }).check();
    await expect(picker).toHaveAccessibleName(/1 selected/);
  });
  const panel = page.getByRole("dialog").filter({ hasText: "it will not be shown again" });
  const secret = await panel.getByLabel("Client secret").inputValue();
  await panel.getByRole("button", { name: "I have saved it" }).click();
  await expect(page.getByRole("tab")).toHaveText(["curl", "Node.js (openid-client)"]);
  const issuer = (await shown(page, "Issuer").textContent())!;
  await expect(page.getByRole("tabpanel")).toContainText(`curl -s -u '${id}:'"$CLIENT_SECRET"`);
  await expect(page.getByRole("tabpanel")).toContainText(`${issuer}/oauth/te`);
  await expect(shown(page, "Authorization endpoint")).toHaveCount(0);

  const config = await client.discovery(new URL(issuer), id, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });
  const { access_token, scope } = await client.clientCredentialsGrant(config, { scope: "idp_api_sys_users" });
  expect(scope).toBe("idp_api_sys_users");
  const read = await request.get(`api/v3/users/nobody-${id}`, { headers: { authorization: `Bearer ${access_token}` } });
  expect(read.status()).toBe(404);

  await clients.goto();
  await clients.searchFor(id);
  await expect(clients.row(id)).toContainText("Machine-to-machine");
  await expect(clients.row(id)).toContainText("client_credentials");
  await clients.row(id).getByRole("link", { name: id }).click();
  await expect(page).toHaveURL(new RegExp(`/console/clients/${id}$`));
});
