import { expect, test, type Browser, type Page } from "@playwright/test";
import * as client from "openid-client";
import { ConsentPage } from "./pages/consent.page.ts";
import type { TKind } from "./pages/clients.page.ts";
import { LoginPage, type TLang } from "./pages/login.page.ts";
import { signInAsAdmin, uniqueClientId, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD, type TPerson } from "./support/portal.ts";

// "New application" by kind, ending on the application's page: what to copy (client id, secret once,
// endpoints) and a quick start. Each kind is then used for real the way its snippet says, by
// openid-client against the service: a person signs in through a web and a single-page application in
// Chromium; a machine-to-machine application gets a token. Deleting ends what the application held.
// Each in both languages: the console's and the person's.

const CALLBACK = new URL("e2e-callback", process.env.E2E_BASE_URL!.replace(/\/?$/, "/")).toString();

const WORDS = {
  en: {
    newButton: "New client", title: "New client application", id: "Client id", name: "Name", redirects: "Redirect URIs", create: "Create",
    kinds: { web: "Web application", spa: "Single-page or native app", m2m: "Machine-to-machine" } as Record<TKind, string>,
    userScopes: /^User scopes/, systemScopes: /^System scopes/, oneSelected: /1 selected/,
    secretOnce: "it will not be shown again", secret: "Client secret", saved: "I have saved it",
    clientId: "Client id", issuer: "Issuer", token: "Token endpoint", discovery: "Discovery document", authorization: "Authorization endpoint",
    authNone: "none: the client id alone, with PKCE", rotate: "Rotate secret",
    delete: "Delete…", deleteTitle: (name: string) => `Delete ${name}?`, deleteConfirm: "Delete application", deleted: (id: string) => `Application ${id} deleted.`,
    deleteItems: ["access tokens it was issued stop working", "active refresh tokens revoked: 1", "consents people gave it removed: 1"],
  },
  ru: {
    newButton: "Новый клиент", title: "Новое клиентское приложение", id: "Идентификатор клиента", name: "Название", redirects: "URI перенаправления", create: "Создать",
    kinds: { web: "Веб-приложение", spa: "Одностраничное или мобильное приложение", m2m: "Сервис (машина-машина)" } as Record<TKind, string>,
    userScopes: /^Пользовательские scope/, systemScopes: /^Системные scope/, oneSelected: /Выбрано: 1/,
    secretOnce: "больше он показан не будет", secret: "Секрет клиента", saved: "Я сохранил его",
    clientId: "Client id", issuer: "Issuer", token: "Token endpoint", discovery: "Документ discovery", authorization: "Authorization endpoint",
    authNone: "none: только client id, с PKCE", rotate: "Заменить секрет",
    delete: "Удалить…", deleteTitle: (name: string) => `Удалить ${name}?`, deleteConfirm: "Удалить приложение", deleted: (id: string) => `Приложение ${id} удалено.`,
    deleteItems: ["выданные ему access-токены перестанут действовать", "отзываются действующие refresh-токены: 1", "удаляются согласия, данные ему людьми: 1"],
  },
};
type TWords = (typeof WORDS)["en"];

/** The value the application's page shows beside a label (a dt/dd pair with a copy button). */
function shown(page: Page, label: string) {
  return page.locator(".app-copy").filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) }).locator("dd code");
}

/** The console's applications list in `lang`, signed in as the administrator. */
async function openApplications(page: Page, lang: TLang): Promise<void> {
  await signInAsAdmin(page);
  await useConsoleLanguage(page, lang);
  await page.goto("console/clients");
}

/** The new-application form filled for a kind; submitted, it leads to the application's page. */
async function createApp(page: Page, kind: TKind, w: TWords, id: string, fill: (form: ReturnType<Page["getByRole"]>) => Promise<void> = async () => undefined) {
  const form = page.getByRole("dialog").filter({ has: page.getByRole("heading", { name: w.title }) });
  await expect(async () => {
    await page.getByRole("button", { name: w.newButton }).click();
    await expect(form).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await form.getByRole("radio", { name: w.kinds[kind] }).check();
  await form.getByLabel(w.id).fill(id);
  await form.getByLabel(w.name, { exact: true }).fill(`${kind} ${id}`);
  if (kind !== "m2m") await form.getByLabel(w.redirects, { exact: true }).fill(CALLBACK);
  await fill(form);
  await form.getByRole("button", { name: w.create }).click();
  await expect(page).toHaveURL(new RegExp(`/console/clients/${id}$`));
}

/** The one-time secret from the panel after creating; closed, the secret is gone from the page. */
async function takeSecret(page: Page, w: TWords): Promise<string> {
  const panel = page.getByRole("dialog").filter({ hasText: w.secretOnce });
  const secret = await panel.getByLabel(w.secret).inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await panel.getByRole("button", { name: w.saved }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  return secret;
}

/** The person signs in through the application in a browser of their own; the code comes back to CALLBACK. */
async function signInThrough(browser: Browser, url: URL, person: TPerson, lang: TLang): Promise<URL> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url.toString());
  await new LoginPage(page, lang).signIn(person.sub, PERSON_PASSWORD);
  const consent = new ConsentPage(page, lang);
  await consent.expectShown();
  await consent.allow.click();
  await expect(page).toHaveURL(/e2e-callback\?code=/);
  const back = new URL(page.url());
  await page.context().close();
  return back;
}

async function openidClientSignIn(config: client.Configuration, browser: Browser, person: TPerson, scope: string, lang: TLang) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    ui_locales: lang,
  });
  const back = await signInThrough(browser, url, person, lang);
  return client.authorizationCodeGrant(config, back, { pkceCodeVerifier: codeVerifier, expectedState: state });
}

for (const lang of ["en", "ru"] as TLang[]) {
  const w = WORDS[lang];

  test(`a web application: its page gives the secret once, the endpoints and snippets; openid-client signs a person in; deleting it ends the grant (${lang})`, async ({ browser, page }) => {
    const person = await createPerson(browser);
    await openApplications(page, lang);
    const id = uniqueClientId();
    await createApp(page, "web", w, id, async (form) => {
      await form.getByRole("group", { name: w.userScopes }).getByRole("checkbox", { name: "idp_api_user", exact: true }).check();
    });

    const secret = await takeSecret(page, w);
    await expect(page.getByRole("heading", { name: `web ${id}`, level: 1 })).toBeVisible();
    await expect(shown(page, w.clientId)).toHaveText(id);
    const issuer = (await shown(page, w.issuer).textContent())!;
    expect(issuer).toBe(process.env.E2E_BASE_URL!.replace(/\/$/, ""));
    await expect(shown(page, w.token)).toHaveText(`${issuer}/oauth/te`);
    await expect(shown(page, w.discovery)).toHaveText(`${issuer}/.well-known/openid-configuration`);

    const quickStart = page.getByRole("tabpanel");
    await expect(page.getByRole("tab", { name: "Node.js (openid-client)" })).toHaveAttribute("aria-selected", "true");
    await expect(quickStart).toContainText(`new URL("${issuer}")`);
    await expect(quickStart).toContainText(`const redirect_uri = "${CALLBACK}";`);
    await expect(quickStart).toContainText(`scope: "openid profile email offline_access idp_api_user"`);
    await page.getByRole("tab", { name: "Node.js (openid-client)" }).press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Next.js (Auth.js)" })).toBeFocused();
    await expect(quickStart).toContainText(`clientId: "${id}"`);
    await expectNoSeriousViolationsInBothSchemes(page, `a web application's page (${lang})`);

    // The snippet's flow, performed by openid-client with the values the page showed.
    const config = await client.discovery(new URL(issuer), id, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });
    const tokens = await openidClientSignIn(config, browser, person, "openid profile email offline_access idp_api_user", lang);
    expect(tokens.claims()!.sub).toBe(person.sub);
    expect(tokens.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "idp_api_user"]));
    expect((await client.fetchUserInfo(config, tokens.access_token, person.sub)).sub).toBe(person.sub);

    // Deleting names what ends, then ends it.
    await page.getByRole("button", { name: w.delete }).click();
    const confirm = page.getByRole("dialog", { name: w.deleteTitle(`web ${id}`) });
    await expect(confirm.getByRole("listitem")).toHaveText(w.deleteItems);
    await expectNoSeriousViolationsInBothSchemes(page, `the delete application dialog (${lang})`);
    await confirm.getByRole("button", { name: w.deleteConfirm }).click();
    await expect(page).toHaveURL(/\/console\/clients\?deleted=/);
    await expect(page.getByRole("main").getByText(w.deleted(id))).toBeVisible();
    // Both refused with 401 and a WWW-Authenticate challenge: the client is unknown, its token dead.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ status: 401 });
    await expect(client.fetchUserInfo(config, tokens.access_token, person.sub)).rejects.toMatchObject({ status: 401 });
  });

  test(`a single-page application has no secret, and openid-client signs a person in with PKCE alone (${lang})`, async ({ browser, page }) => {
    const person = await createPerson(browser);
    await openApplications(page, lang);
    const id = uniqueClientId();
    await createApp(page, "spa", w, id, async (form) => {
      // A public application holds no system scopes: the form does not offer them.
      await expect(form.getByRole("group", { name: w.systemScopes })).toHaveCount(0);
    });
    await expect(page.getByRole("heading", { name: `spa ${id}`, level: 1 })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByText(w.authNone)).toBeVisible();
    await expect(page.getByRole("tab")).toHaveText(["Node.js (openid-client)"]);
    await expect(page.getByRole("tabpanel")).toContainText("client.None()");
    await expect(page.getByRole("button", { name: w.rotate })).toHaveCount(0);
    await expectNoSeriousViolationsInBothSchemes(page, `a single-page application's page (${lang})`);

    const issuer = process.env.E2E_BASE_URL!.replace(/\/$/, "");
    const config = await client.discovery(new URL(issuer), id, { token_endpoint_auth_method: "none" }, client.None(), { execute: [client.allowInsecureRequests] });
    const tokens = await openidClientSignIn(config, browser, person, "openid profile", lang);
    expect(tokens.claims()!.sub).toBe(person.sub);
    expect(tokens.refresh_token).toBeUndefined();
  });

  test(`a machine-to-machine application gets a client-credentials token as its snippet does, and the list shows its kind (${lang})`, async ({ page, request }) => {
    await openApplications(page, lang);
    const id = uniqueClientId();
    await createApp(page, "m2m", w, id, async (form) => {
      await expect(form.getByLabel(w.redirects, { exact: true })).toHaveCount(0);
      const picker = form.getByRole("group", { name: w.systemScopes });
      await picker.getByRole("searchbox").fill("sys_users");
      await expect(picker.getByRole("checkbox")).toHaveCount(3);
      await picker.getByRole("checkbox", { name: "idp_api_sys_users", exact: true }).check();
      await expect(picker).toHaveAccessibleName(w.oneSelected);
    });
    const secret = await takeSecret(page, w);
    await expect(page.getByRole("tab")).toHaveText(["curl", "Node.js (openid-client)"]);
    const issuer = (await shown(page, w.issuer).textContent())!;
    await expect(page.getByRole("tabpanel")).toContainText(`curl -s -u '${id}:'"$CLIENT_SECRET"`);
    await expect(page.getByRole("tabpanel")).toContainText(`${issuer}/oauth/te`);
    await expect(shown(page, w.authorization)).toHaveCount(0);
    await expectNoSeriousViolationsInBothSchemes(page, `a machine-to-machine application's page (${lang})`);

    const config = await client.discovery(new URL(issuer), id, secret, client.ClientSecretBasic(secret), { execute: [client.allowInsecureRequests] });
    const { access_token, scope } = await client.clientCredentialsGrant(config, { scope: "idp_api_sys_users" });
    expect(scope).toBe("idp_api_sys_users");
    const read = await request.get(`api/v3/users/nobody-${id}`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(read.status()).toBe(404);

    await page.goto("console/clients");
    await page.getByRole("searchbox").fill(id);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: id, exact: true }) });
    await expect(row).toContainText(w.kinds.m2m);
    await expect(row).toContainText("client_credentials");
    await row.getByRole("link", { name: id, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/console/clients/${id}$`));
  });
}
