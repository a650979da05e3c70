import { createHash, randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { QrSignInPage } from "./pages/qr-sign-in.page.ts";

// Browser A shows the QR code on the sign-in page of an application; the user, signed in on browser
// B (their phone), confirms or refuses it through the API with their own token; A follows by itself.

const RP = { id: "e2e-rp", redirectUri: "https://rp.e2e.test/cb" };
const USER = { sub: "e2e-qr-user", password: "e2e-qr-password" };
const PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const CALLBACK = /^https:\/\/rp\.e2e\.test\/cb\?/;

/** An authorization request of the e2e application with PKCE. */
function authorization(scope: string) {
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(8).toString("hex");
  const params = new URLSearchParams({
    response_type: "code",
    client_id: RP.id,
    redirect_uri: RP.redirectUri,
    scope,
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  return { url: `oauth/ae?${params}`, verifier, state };
}

/**
 * A browser context of its own. The application has no server: its redirect URI does not resolve,
 * so the tests read where the browser was sent from the request it made there.
 */
function newBrowser(browser: Browser, baseURL: string, userAgent?: string): Promise<BrowserContext> {
  return browser.newContext({ baseURL, locale: "en-US", userAgent });
}

/** The query of the browser's request to the application's redirect URI, once it is made. */
async function callback(page: Page, action: () => Promise<unknown>): Promise<URLSearchParams> {
  const sent = page.waitForRequest(CALLBACK);
  await action();
  return new URL((await sent).url()).searchParams;
}

async function exchange(request: APIRequestContext, code: string, verifier: string): Promise<{ access_token: string; id_token: string }> {
  const res = await request.post("oauth/te", {
    form: { grant_type: "authorization_code", code, redirect_uri: RP.redirectUri, client_id: RP.id, code_verifier: verifier },
  });
  expect(res.status()).toBe(200);
  return res.json();
}

/** The user signs in on B through the sign-in page, as an application on their phone would, and gets a user token. */
async function phoneToken(phone: BrowserContext): Promise<string> {
  const page = await phone.newPage();
  const { url, verifier } = authorization("openid idp_qr_auth");
  await page.goto(url);
  const login = new QrSignInPage(page);
  await login.expectLogin();
  const code = (await callback(page, () => login.signIn(USER.sub, USER.password))).get("code")!;
  await page.close();
  return (await exchange(phone.request, code, verifier)).access_token;
}

const decide = (phone: BrowserContext, token: string, code: string, action: "" | "/confirm" | "/refuse") =>
  phone.request.fetch(`api/v3/auth/qr/${code}${action}`, {
    method: action ? "POST" : "GET",
    headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.50", "user-agent": PHONE_UA },
  });

const subOf = (idToken: string) => JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString()).sub as string;

test("a browser signs in by a QR code confirmed from a second browser", async ({ browser, baseURL }) => {
  const laptop = await newBrowser(browser, baseURL!);
  const phone = await newBrowser(browser, baseURL!, PHONE_UA);
  const token = await phoneToken(phone);

  const page = await laptop.newPage();
  const { url, verifier, state } = authorization("openid idp_api_user");
  await page.goto(url);
  const signIn = new QrSignInPage(page);
  await signIn.expectLogin();
  const code = await signIn.showQrCode();
  expect(code).toMatch(/^[A-Z2-7]{26}$/);

  const asked = await decide(phone, token, code, "");
  expect(asked.status()).toBe(200);
  expect(await asked.json()).toMatchObject({ client: { id: RP.id, name: "E2E application" }, device: { kind: "desktop" } });
  // The waiting page notices by itself and the browser goes back to the application with a code.
  const back = await callback(page, async () => expect((await decide(phone, token, code, "/confirm")).status()).toBe(204));
  expect(back.get("state")).toBe(state);
  const tokens = await exchange(laptop.request, back.get("code")!, verifier);
  expect(subOf(tokens.id_token)).toBe(USER.sub);

  await laptop.close();
  await phone.close();
});

test("a refused QR code is said in words, and a new code can be shown", async ({ browser, baseURL }) => {
  const laptop = await newBrowser(browser, baseURL!);
  const phone = await newBrowser(browser, baseURL!, PHONE_UA);
  const token = await phoneToken(phone);

  const page = await laptop.newPage();
  await page.goto(authorization("openid").url);
  const signIn = new QrSignInPage(page);
  const code = await signIn.showQrCode();
  expect((await decide(phone, token, code, "/refuse")).status()).toBe(204);

  await expect(signIn.alert).toHaveText("The sign-in was refused on the other device.");
  await expect(signIn.qrImage).toHaveCount(0);
  await signIn.newCode.click();
  const fresh = await signIn.expectWaiting();
  expect(fresh).not.toBe(code);
  expect((await decide(phone, token, code, "/confirm")).status()).toBe(404);

  await laptop.close();
  await phone.close();
});
