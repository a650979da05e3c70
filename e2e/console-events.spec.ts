import { randomInt } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { parseCsv } from "../test/support/csv.ts";
import { EventsPage } from "./pages/events.page.ts";
import { SignInFlow } from "./pages/sign-in-flow.page.ts";
import { UserDetailPage } from "./pages/user-detail.page.ts";
import { UsersPage } from "./pages/users.page.ts";
import { basicAuth, signInAsAdmin, uniqueClientId, uniqueTag } from "./support/admin.ts";

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type TTokens = { access_token: string; refresh_token: string };
type TRp = { clientId: string; secret: string; redirectUri: string };

/** What the application does with the code: a confidential client's token request. */
async function redeem(request: APIRequestContext, rp: TRp, code: string, verifier: string): Promise<TTokens> {
  const res = await request.post("oauth/te", {
    headers: { authorization: basicAuth(rp.clientId, rp.secret), "content-type": "application/x-www-form-urlencoded" },
    data: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: rp.redirectUri, code_verifier: verifier }).toString(),
  });
  expect(res.status()).toBe(200);
  return res.json();
}

test("a user's sign-in activity in the console: devices, consents, events, CSV, sign-out and revocation", async ({ page, browser, request, baseURL }) => {
  const clients = await signInAsAdmin(page);
  const tag = uniqueTag();
  const rp: TRp = { clientId: uniqueClientId(), secret: "", redirectUri: `https://shop-${tag}.example.test/callback` };
  await clients.create({ id: rp.clientId, name: `Shop ${tag}`, scopes: "", redirectUris: rp.redirectUri, grantTypes: ["authorization_code", "refresh_token"] });
  rp.secret = await clients.takeOneTimeSecret();
  const users = new UsersPage(page);
  await users.goto();
  const user = { sub: `eve-${tag}`, password: `a long passphrase ${tag}` };
  await users.create({ sub: user.sub, familyName: "Eventova", password: user.password });

  // The user, in a browser of their own (its address as a proxy would pass it): a wrong password,
  // the right one, then consent to the application, which redeems the code.
  const ip = `192.0.2.${randomInt(1, 255)}`;
  const userContext = await browser.newContext({ baseURL, userAgent: FIREFOX, locale: "en-US", extraHTTPHeaders: { "x-forwarded-for": ip } });
  const flow = new SignInFlow(await userContext.newPage(), { clientId: rp.clientId, redirectUri: rp.redirectUri, scope: "openid offline_access" });
  await flow.interceptCallback();
  await flow.start();
  await flow.expectSignInForm();
  await flow.submitCredentials(user.sub, "not the password");
  await flow.expectRefused();
  await flow.submitCredentials(user.sub, user.password);
  await flow.expectConsentForm();
  await flow.allow();
  const tokens = await redeem(request, rp, await flow.codeFromCallback(), flow.verifier);
  const userinfo = (t: TTokens) => request.get("oauth/me", { headers: { authorization: `Bearer ${t.access_token}` } });
  expect((await userinfo(tokens)).status()).toBe(200);

  // The user page shows where they are signed in, what they allowed, and what happened.
  const detail = new UserDetailPage(page);
  await detail.goto(user.sub);
  await expect(detail.rowIn(detail.devices, "Firefox, Linux")).toContainText(ip);
  await expect(detail.rowIn(detail.consents, rp.clientId)).toContainText("offline_access");
  await expect(detail.rowIn(detail.recentEvents, "user.sign_in_failed")).toContainText("bad_password");
  await expect(detail.rowIn(detail.recentEvents, "user.signed_in")).toContainText(ip);
  await expect(detail.rowIn(detail.recentEvents, "user.consent_granted")).toContainText(rp.clientId);

  // The events page, reached from the user, filtered by the user and then by type; the filter is the URL's.
  await detail.recentEvents.getByRole("link", { name: "All events of this user" }).click();
  const events = new EventsPage(page);
  await events.expectShown();
  await expect(events.field("sub")).toHaveValue(user.sub);
  await expect(events.rowsOfType("user.signed_in")).toHaveCount(1);
  await expect(events.rowsOfType("user.sign_in_failed")).toHaveCount(1);
  await events.filter({ type: "user.sign_in_failed" });
  await expect(events.rows()).toHaveCount(1);
  await page.reload();
  await expect(events.field("type")).toHaveValue("user.sign_in_failed");
  await expect(events.rows()).toHaveCount(1);
  await expect(events.rowsOfType("user.sign_in_failed")).toContainText(ip);

  // The CSV holds the same, filtered rows, with every field as recorded.
  const csv = await events.downloadCsv();
  expect(csv.name).toMatch(/^security-events-\d{8}-\d{6}\.csv$/);
  const [header, ...rows] = parseCsv(csv.text);
  expect(header).toEqual(["id", "time", "type", "subject", "client", "ip", "user_agent", "params"]);
  expect(rows).toEqual([[expect.stringMatching(/^\d+$/), expect.stringMatching(ISO_TIME), "user.sign_in_failed", user.sub, rp.clientId, ip, FIREFOX, '{"reason":"bad_password"}']]);

  // Signing the device out ends its session: the application's token is refused at once.
  await detail.goto(user.sub);
  await detail.signOutDevice("Firefox, Linux");
  await expect(detail.devices.getByText("Firefox, Linux is signed out.")).toBeVisible();
  await expect(detail.devices.getByText("The user has not signed in from any device.")).toBeVisible();
  expect((await userinfo(tokens)).status()).toBe(401);
  await expect(detail.rowIn(detail.recentEvents, "user.device_removed")).toContainText("console");

  // Revoking the consent: gone from the list, and the next sign-in asks for it again.
  await detail.revokeConsent(rp.clientId);
  await expect(detail.consents.getByText(`The consent to ${rp.clientId} is revoked.`)).toBeVisible();
  await expect(detail.consents.getByText("The user has not allowed any application access.")).toBeVisible();
  await flow.start();
  await flow.expectSignInForm();
  await flow.submitCredentials(user.sub, user.password);
  await flow.expectConsentForm();
  await flow.allow();
  const again = await redeem(request, rp, await flow.codeFromCallback(), flow.verifier);

  // Ending all sessions refuses every token issued before, refresh tokens included.
  await page.reload();
  await expect(detail.rowIn(detail.devices, "Firefox, Linux")).toBeVisible();
  await detail.endAllSessions(user.sub);
  await expect(detail.devices.getByText("All sessions of the user ended.")).toBeVisible();
  expect((await userinfo(again)).status()).toBe(401);
  const refresh = await request.post("oauth/te", {
    headers: { authorization: basicAuth(rp.clientId, rp.secret), "content-type": "application/x-www-form-urlencoded" },
    data: new URLSearchParams({ grant_type: "refresh_token", refresh_token: again.refresh_token }).toString(),
  });
  expect(refresh.status()).toBe(400);
  expect((await refresh.json()).error).toBe("invalid_grant");
  await userContext.close();
});

test("the console header keeps one row at 1280 px in Russian; the Security group opens and leads to its pages", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  // The language toggle's cookie, set directly: a click before hydration would be lost.
  await page.context().addCookies([{ name: "idp_lang", value: "ru", url: baseURL! }]);
  await page.goto("console/events");
  await expect(page.getByRole("heading", { name: "События безопасности", level: 1 })).toBeVisible();
  const nav = page.getByRole("navigation");
  const security = nav.getByRole("button", { name: "Безопасность" });
  const entries = [...(await nav.getByRole("link").all()), nav.getByRole("button", { name: "Доступ" }), security, nav.getByRole("button", { name: "Письма и вид" })];
  const items = [page.locator(".console-brand"), ...entries, page.getByRole("button", { name: "English" }), page.getByRole("button", { name: "Выйти" })];
  const boxes = await Promise.all(items.map(async (l) => (await l.boundingBox())!));
  // Brand, three section links, three groups, the language and sign-out buttons.
  expect(boxes).toHaveLength(9);
  // One row: every item's vertical middle lies within every other item's height.
  const middles = boxes.map((b) => b.y + b.height / 2);
  for (const b of boxes) for (const m of middles) expect(m >= b.y && m <= b.y + b.height, JSON.stringify({ b, m })).toBe(true);

  // The group holding the current page opens on a click and marks it; another of its pages is a click away.
  await security.click();
  await expect(security).toHaveAttribute("aria-expanded", "true");
  await expect(nav.getByRole("link", { name: "События" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Парольная политика" }).click();
  await expect(page).toHaveURL(/\/console\/password-policy$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
