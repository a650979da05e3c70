import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { ClientsPage } from "../pages/clients.page.ts";
import { SignInPage } from "../pages/sign-in.page.ts";

export const ADMIN_LOGIN = "admin";
export const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? "";

/** The console's home page, where it opens after signing in. */
export async function expectDashboard(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/console\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

/** Signs in from the console's sign-in page through the service's own; the console opens on its overview, then goes to the clients page. */
export async function signInAsAdmin(page: Page): Promise<ClientsPage> {
  expect(adminPassword, "E2E_ADMIN_PASSWORD (set by scripts/e2e.mjs)").not.toBe("");
  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(ADMIN_LOGIN, adminPassword);
  await expectDashboard(page);
  const clients = new ClientsPage(page);
  await clients.goto();
  return clients;
}

/** The console (and the pages it leads to) in `lang`: the language toggle's cookie, set directly. */
export async function useConsoleLanguage(page: Page, lang: "en" | "ru"): Promise<void> {
  await page.context().addCookies([{ name: "idp_lang", value: lang, domain: new URL(process.env.E2E_BASE_URL!).hostname, path: "/" }]);
}

/** Lower-case letters only, so it also fits in names and attribute names. */
export function uniqueTag(): string {
  return [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
}

export function uniqueClientId(): string {
  return `e2e-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
}

/** RFC 6749 §2.3.1: each part is application/x-www-form-urlencoded before the Basic encoding. */
export function basicAuth(id: string, secret: string): string {
  const formEncode = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
  return "Basic " + Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString("base64");
}

/**
 * A client created in the console with `scopes`, and a client_credentials token for all of them:
 * how an application would call the REST API.
 */
export async function consoleClientToken(clients: ClientsPage, request: APIRequestContext, scopes: string[]): Promise<string> {
  const id = uniqueClientId();
  await clients.goto();
  await clients.create({ id, name: `E2E ${id}`, scopes: scopes.join(" ") });
  const secret = await clients.takeOneTimeSecret();
  const token = await requestToken(request, id, secret, scopes.join(" "));
  expect(token.status()).toBe(200);
  return (await token.json()).access_token;
}

/** A client_credentials grant at the token endpoint. */
export function requestToken(request: APIRequestContext, id: string, secret: string, scope = "idp_api_sys_users") {
  return request.post("oauth/te", {
    headers: { authorization: basicAuth(id, secret), "content-type": "application/x-www-form-urlencoded" },
    data: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
  });
}
