import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SAML } from "@node-saml/node-saml";
import { expect, test } from "@playwright/test";
import { makeSpKeys, newServiceProvider } from "../test/support/saml-sp.ts";
import { signInAsAdmin, uniqueTag, useConsoleLanguage } from "./support/admin.ts";
import { expectNoSeriousViolationsInBothSchemes } from "./support/axe.ts";
import { createPerson, PERSON_PASSWORD, signInToPortal } from "./support/portal.ts";
import { totp, turnOnSecondFactor } from "./support/totp.ts";

// An administrator adds a SAML application from its metadata in the console; a person with the
// second factor signs in to it through the service, then signs out here, which signs them out of
// the application too. The application is @node-saml/node-saml behind a small HTTP server of the
// test's own on loopback: it checks every response and logout request as a real one would.

const base = () => process.env.E2E_BASE_URL!.replace(/\/?$/, "/");

type TApp = { sp: SAML; url: string; metadata: string; signedIn: string[]; loggedOut: string[]; close: () => Promise<void> };

async function formOf(req: import("node:http").IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/** The application: its ACS shows whom node-saml accepted; its logout endpoint answers our logout request. */
async function startApp(tag: string): Promise<TApp> {
  const keys = makeSpKeys(`wiki-${tag}.example`);
  const idpMetadata = await (await fetch(`${base()}saml/metadata`)).text();
  const body = /<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>([^<]+)</.exec(idpMetadata)![1]!;
  const idpCert = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{64}/g, "$&\n")}\n-----END CERTIFICATE-----\n`;
  const app = { signedIn: [] as string[], loggedOut: [] as string[] } as TApp;
  const server: Server = createServer((req, res) => {
    void (async () => {
      try {
        const form = await formOf(req);
        if (req.url === "/acs") {
          const { profile } = await app.sp.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse! });
          app.signedIn.push(profile!.nameID);
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Wiki</title><h1>Signed in to the wiki as ${profile!.nameID}</h1>`);
        } else if (req.url === "/slo") {
          const { profile } = await app.sp.validatePostRequestAsync({ SAMLRequest: form.SAMLRequest! });
          app.loggedOut.push(profile!.nameID);
          res.writeHead(302, { location: await app.sp.getLogoutResponseUrlAsync(profile!, form.RelayState ?? "", {}, true) }).end();
        } else res.writeHead(404).end();
      } catch (e) {
        res.writeHead(400, { "content-type": "text/plain" }).end(`refused: ${(e as Error).message}`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.sp = newServiceProvider({
    entityId: `https://wiki-${tag}.example/saml`,
    acsUrl: `${app.url}/acs`,
    entryPoint: `${base()}saml/sso`,
    logoutUrl: `${base()}saml/slo`,
    logoutCallbackUrl: `${app.url}/slo`,
    keys,
    idpCert,
    // Unsolicited responses (opened from the portal) have no InResponseTo; solicited ones are still matched.
    validateInResponseTo: "ifPresent" as never,
  });
  app.metadata = app.sp.generateServiceProviderMetadata(null, keys.cert);
  app.close = () => new Promise((resolve) => server.close(() => resolve()));
  return app;
}

test("an administrator adds a SAML application from its metadata; a person signs in to it with the second factor and signs out everywhere", async ({ browser, page }) => {
  test.slow();
  const tag = uniqueTag();
  const app = await startApp(tag);
  try {
    // The person, with an authenticator app: their sign-in will ask for its code.
    const person = await createPerson(browser);
    await signInToPortal(page, person.sub, "two-factor");
    const key = await turnOnSecondFactor(page);

    // The administrator pastes the application's metadata into the console.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    await admin.goto("console/saml");
    await expect(admin.getByRole("heading", { name: "SAML applications", level: 1 })).toBeVisible();
    await expect(admin.getByText(`${base()}saml/sso`)).toBeVisible();
    await admin.getByRole("button", { name: "Add application" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("ID", { exact: true }).fill(`wiki-${tag}`);
    await dialog.getByLabel("Name", { exact: true }).fill(`Wiki ${tag}`);
    await dialog.getByLabel("The application's metadata (XML)").fill("<EntityDescriptor/>");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expect(dialog.getByText("This metadata cannot be used (the service provider's metadata is not accepted: the document must be one EntityDescriptor).")).toBeVisible();
    await dialog.getByLabel("The application's metadata (XML)").fill(app.metadata);
    await expectNoSeriousViolationsInBothSchemes(admin, "the add-SAML-application dialog");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expect(admin.getByText(`SAML application Wiki ${tag} added.`)).toBeVisible();
    const row = admin.getByRole("row", { name: new RegExp(`wiki-${tag}`) });
    await expect(row).toContainText(`https://wiki-${tag}.example/saml`);
    await expect(row).toContainText("single logout");
    await expectNoSeriousViolationsInBothSchemes(admin, "the SAML applications page");
    await adminContext.close();

    // The person, in a browser without a session, opens the application: the service's pages, then the app's code.
    const personContext = await browser.newContext();
    const visitor = await personContext.newPage();
    await visitor.goto(await app.sp.getAuthorizeUrlAsync("", undefined, {}));
    await expect(visitor.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
    await expect(visitor.getByText(`Wiki ${tag}`)).toBeVisible();
    await visitor.getByLabel("Username, e-mail or phone").fill(person.sub);
    await visitor.getByLabel("Password").fill(PERSON_PASSWORD);
    await visitor.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(visitor).toHaveURL(/\/login\/otp\?/);
    await visitor.getByLabel("Code from your authenticator app").fill(totp(key, new Date(Date.now() + 30_000)));
    await visitor.getByRole("button", { name: "Continue" }).click();
    await expect(visitor.getByRole("heading", { name: `Signed in to the wiki as ${person.email}` })).toBeVisible();
    expect(app.signedIn).toEqual([person.email]);

    // Signing out here takes the application along: its logout endpoint is told, then the service says so.
    await visitor.goto("oauth/logout");
    await visitor.getByRole("button", { name: "Sign out" }).click();
    await expect(visitor.getByText("You are signed out.")).toBeVisible();
    expect(app.loggedOut).toEqual([person.email]);
    await visitor.goto(await app.sp.getAuthorizeUrlAsync("", undefined, {}));
    await expect(visitor.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
    await personContext.close();
  } finally {
    await app.close();
  }
});

test("an administrator lets people open a SAML application from the portal and ask their consent; a person allows it, then revokes it", async ({ browser, page }) => {
  const tag = uniqueTag();
  const app = await startApp(tag);
  try {
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    await admin.goto("console/saml");
    await admin.getByRole("button", { name: "Add application" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("ID", { exact: true }).fill(`open-${tag}`);
    await dialog.getByLabel("Name", { exact: true }).fill(`Open ${tag}`);
    await dialog.getByLabel("The application's metadata (XML)").fill(app.metadata);
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    const row = admin.getByRole("row", { name: new RegExp(`open-${tag}`) });
    await expect(row).not.toContainText("opens from here");

    // Edited afterwards: the saved settings come back in the form, the ID stays.
    await row.getByRole("button", { name: `Edit Open ${tag}` }).click();
    const edit = admin.getByRole("dialog", { name: `Edit Open ${tag}` });
    await expect(edit.getByLabel("ID", { exact: true })).toHaveValue(`open-${tag}`);
    await expect(edit.getByLabel("The application's metadata (XML)")).toHaveValue(app.metadata);
    await edit.getByLabel("People may open it from here (IdP-initiated)").check();
    await edit.getByLabel("Ask people's consent before their first sign-in").check();
    await edit.getByRole("button", { name: "Add attribute" }).click();
    await edit.getByRole("group", { name: "Attribute 1" }).getByLabel("Name there").fill("mail");
    await edit.getByRole("group", { name: "Attribute 1" }).getByLabel("Value from").fill("email");
    await expectNoSeriousViolationsInBothSchemes(admin, "the edit-SAML-application dialog");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(admin.getByText(`SAML application Open ${tag} saved.`)).toBeVisible();
    await expect(row).toContainText("opens from here");
    await expect(row).toContainText("asks consent");
    await adminContext.close();

    const person = await createPerson(browser);
    await signInToPortal(page, person.sub, "consents");
    await expect(page.getByRole("heading", { name: "Applications you can open" })).toBeVisible();
    await expectNoSeriousViolationsInBothSchemes(page, "the portal's consents page with SAML applications");
    await page.getByRole("link", { name: `Open Open ${tag}` }).click();
    // Asked first, with what the application is sent.
    await expect(page.getByText(`Open ${tag} asks for access to your account:`)).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Your e-mail address" })).toBeVisible();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByRole("heading", { name: `Signed in to the wiki as ${person.email}` })).toBeVisible();
    expect(app.signedIn).toEqual([person.email]);

    // The consent is listed among the person's consents, and revoked there.
    await page.goto("account/consents");
    const consent = page.getByRole("row", { name: new RegExp(`Open ${tag}`) });
    await expect(consent).toContainText("Your e-mail address");
    await consent.getByRole("button", { name: `Revoke Open ${tag}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByText(`The access of Open ${tag} is revoked.`)).toBeVisible();
    await page.getByRole("link", { name: `Open Open ${tag}` }).click();
    await expect(page.getByText(`Open ${tag} asks for access to your account:`)).toBeVisible();
  } finally {
    await app.close();
  }
});

test("the SAML applications page in Russian: this service's settings, the add dialog, axe in both schemes", async ({ page }) => {
  await signInAsAdmin(page);
  await useConsoleLanguage(page, "ru");
  await page.goto("console/saml");
  await expect(page.getByRole("heading", { name: "Приложения SAML", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Этот сервис как поставщик удостоверений" })).toBeVisible();
  await page.getByRole("button", { name: "Добавить приложение" }).click();
  const dialog = page.getByRole("dialog");
  const tag = uniqueTag();
  await dialog.getByLabel("Идентификатор", { exact: true }).fill(`ru-${tag}`);
  await dialog.getByLabel("Название", { exact: true }).fill("Вики");
  await dialog.getByLabel("Метаданные приложения (XML)").fill("<x/>");
  await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
  await expect(dialog.getByText(/^Эти метаданные не подходят \(/)).toBeVisible();
  await expectNoSeriousViolationsInBothSchemes(page, "the add-SAML-application dialog (ru)");

  // Typed by hand: an address that is not https is refused beside its field; then it is added.
  await dialog.getByLabel("Вручную").check();
  await dialog.getByLabel("Идентификатор сущности (entity ID)").fill(`https://ru-${tag}.example/saml`);
  await dialog.getByLabel("Адреса приёма ответов (ACS)").fill(`http://ru-${tag}.example/acs`);
  await dialog.getByLabel("Запросы должны быть подписаны").uncheck();
  await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
  await expect(dialog.getByText("#1: must be https (http only on loopback)")).toBeVisible();
  await dialog.getByLabel("Адреса приёма ответов (ACS)").fill(`https://ru-${tag}.example/acs`);
  await expectNoSeriousViolationsInBothSchemes(page, "the add-SAML-application dialog by hand (ru)");
  await dialog.getByRole("button", { name: "Добавить", exact: true }).click();
  const row = page.getByRole("row", { name: new RegExp(`ru-${tag}`) });
  await expect(row).toContainText(`https://ru-${tag}.example/saml`);
  await expect(row).toContainText("принимаются неподписанные запросы");
});
