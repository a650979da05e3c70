import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { createUserWithPassword, readUser } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { APP_CLIENT, appSignIn, cookieHeader, mintConsoleSession, sessionCookie, startAppSignIn, trpcCall, type TApp } from "../support/console.ts";
import { api, base, systemToken } from "../support/http.ts";
import { authorizeThrough, callbackParams, IVANOV, tokenAs, WEB, webAuthorization } from "../support/oidc.ts";

// next-auth in the console and the portal is the service's third relying party (after openid-client
// and oauth4webapi in oidc-relying-parties.test.ts): these tests drive it as a browser without
// JavaScript would after the "Sign in" button, through the service's own sign-in page.

const ADMIN = { identifier: "admin", password: inject("adminPassword") };

const newBrowser = () => new Browser({ "x-forwarded-for": uniqueIp() });
const list = (cookie: string) => trpcCall(base(), cookie, "console.clients.list", {});
const me = (cookie: string) => trpcCall(base(), cookie, "portal.me");

/** Submits the service's sign-in page and stops at the redirect to the app's callback. */
async function callbackOf(browser: Browser, app: TApp, who: { identifier: string; password: string }): Promise<URL> {
  const login = await browser.open(await startAppSignIn(browser, base(), app));
  expect(login.url).toContain("/login?");
  const form = /<form method="post" action="([^"]*)"/.exec(login.text)![1]!.replace(/&amp;/g, "&");
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(login.text)![1]!;
  const submitted = await browser.fetch(new URL(form, login.url).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf_token: csrf, ...who }).toString(),
  });
  expect(submitted.status).toBe(303);
  const callback = new URL(submitted.location!);
  expect(callback.toString()).toMatch(new RegExp(`^${base()}/api/auth/callback/${APP_CLIENT[app]}\\?`));
  return callback;
}

async function resetSessions(sub: string): Promise<void> {
  const { instanceId } = (await readUser(sub)).body.meta;
  const token = await systemToken("users-app", "idp_api_sys_usec_chg");
  expect((await api("POST", `/api/v3/users/${instanceId}/sessions/reset`, { token })).status).toBe(204);
}

describe("console and portal sign in at the service itself through next-auth", () => {
  it("asks the service for a code with PKCE, state and nonce, as the built-in client", async () => {
    const url = new URL(await startAppSignIn(newBrowser(), base(), "console"));
    expect(`${url.origin}${url.pathname}`).toBe(`${base()}/oauth/ae`);
    const p = url.searchParams;
    expect(Object.fromEntries(["client_id", "response_type", "scope", "redirect_uri", "code_challenge_method"].map((k) => [k, p.get(k)]))).toEqual({
      client_id: "idp-console",
      response_type: "code",
      scope: "openid profile email phone",
      redirect_uri: `${base()}/api/auth/callback/idp-console`,
      code_challenge_method: "S256",
    });
    expect(p.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(p.get("state")).toBeTruthy();
    expect(p.get("nonce")).toBeTruthy();
  });

  it("gives the administrator a console session only once the callback's code was exchanged and its ID token validated", async () => {
    const browser = newBrowser();
    const callback = await callbackOf(browser, "console", ADMIN);
    expect(sessionCookie(browser, "console")).toBeUndefined();

    // A callback that does not match the request next-auth made (state, issuer) creates nothing.
    for (const [name, value] of [["state", "forged-state"], ["iss", "https://idp.evil.example"]] as const) {
      const forged = new URL(callback);
      forged.searchParams.set(name, value);
      const refused = await browser.fetch(forged.toString());
      expect(refused.location).toMatch(new RegExp(`^${base()}/console/sign-in\\?error=`));
      expect(sessionCookie(browser, "console")).toBeUndefined();
    }

    const landed = await browser.open(callback.toString());
    expect(landed.status).toBe(200);
    expect(landed.url).toBe(`${base()}/console/dashboard`);
    const cookie = sessionCookie(browser, "console")!;
    expect(cookie).toBeDefined();
    const clients = await list(cookie);
    expect(clients.status).toBe(200);
    expect(clients.body.result!.data.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(["idp-console", "idp-portal"]));
    // Nobody can change them from the console, the administrator included.
    const rotate = await trpcCall(base(), cookie, "console.clients.rotateSecret", { id: "idp-console" }, "mutation");
    expect(rotate.status).toBe(403);
    expect(rotate.body.error!.data.appCode).toBe("client.builtin");
    // The session holds no token the page's scripts could read, and the code works once only.
    expect(browser.cookies.get("idp-console.session-token")).not.toMatch(/^eyJ[\w-]+\.eyJ/);
    const again = new Browser({ "x-forwarded-for": uniqueIp() });
    const replay = await again.fetch(callback.toString());
    expect(replay.location).toMatch(/\/console\/sign-in\?error=/);
    expect(sessionCookie(again, "console")).toBeUndefined();
  });

  it("sends a person who is not an administrator back to the console's sign-in page with the reason, and admits them to the portal", async () => {
    const browser = newBrowser();
    const refused = await appSignIn(browser, base(), "console", IVANOV.sub, IVANOV.password);
    expect(refused.url).toBe(`${base()}/console/sign-in?error=not_admin`);
    expect(refused.status).toBe(200);
    expect(refused.text).toContain("The account you signed in with is not an administrator");
    expect(sessionCookie(browser, "console")).toBeUndefined();

    // Signed in at the service already: the portal needs no password.
    const landed = await appSignIn(browser, base(), "portal", "-", "-");
    expect(landed.url).toBe(`${base()}/account`);
    const portal = sessionCookie(browser, "portal")!;
    const overview = await me(portal);
    expect(overview.status).toBe(200);
    expect(overview.body.result!.data).toMatchObject({ sub: IVANOV.sub, email: { value: IVANOV.email, verified: true } });
    // The portal's session opens nothing in the console, whatever cookies come along.
    expect((await list(cookieHeader(browser))).status).toBe(401);
  });

  it("refuses a well-formed console session whose holder is not an administrator", async () => {
    const secretKey = inject("secretKey");
    expect((await list(await mintConsoleSession(secretKey, IVANOV.sub))).status).toBe(401);
    expect((await list(await mintConsoleSession(secretKey, "no-such-account"))).status).toBe(401);
    // The same key and shape for the administrator is admitted: it is the holder that was refused.
    const browser = newBrowser();
    await appSignIn(browser, base(), "portal", ADMIN.identifier, ADMIN.password);
    const adminSub = (await me(sessionCookie(browser, "portal")!)).body.result!.data.sub as string;
    expect((await list(await mintConsoleSession(secretKey, adminSub))).status).toBe(200);
    expect((await list(await mintConsoleSession("another-servers-secret-key-0123456789", adminSub))).status).toBe(401);
  });

  it("ends portal access at once when the person's sessions are reset", async () => {
    const account = await createUserWithPassword();
    const browser = newBrowser();
    await appSignIn(browser, base(), "portal", account.sub, account.password);
    const cookie = sessionCookie(browser, "portal")!;
    expect((await me(cookie)).status).toBe(200);
    await resetSessions(account.sub);
    expect((await me(cookie)).status).toBe(401);
  });

  it("sign-out makes every copy of the session useless at once: the portal's cookie and the tokens of the same sign-in", async () => {
    const account = await createUserWithPassword();
    const browser = newBrowser();
    await appSignIn(browser, base(), "portal", account.sub, account.password);
    const copied = sessionCookie(browser, "portal")!;
    // An application signed in through the same browser session (no password asked again).
    const { url, verifier } = webAuthorization({ scope: "openid idp_api_user" });
    const code = callbackParams(await authorizeThrough(browser, url)).get("code")!;
    const app = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(app.status).toBe(200);
    expect((await api("GET", "/api/v3/users/current", { token: app.body.access_token })).status).toBe(200);
    expect((await me(copied)).status).toBe(200);

    const out = await browser.fetch(`${base()}/api/auth/signout/idp-portal`, { method: "POST", headers: { origin: new URL(base()).origin } });
    expect((await browser.open(out.location!)).url).toBe(`${base()}/account`);

    // Someone who copied the cookie (or the token) before is refused now, without waiting for any expiry.
    expect((await me(copied)).status).toBe(401);
    const token = await api("GET", "/api/v3/users/current", { token: app.body.access_token });
    expect(token.status).toBe(401);
    expect(token.body).toMatchObject({ error: "bad_access_token", desc: "revoked_access_token" });
  });

  it("a sign-in form whose callbackUrl is not a URL, or another site's, goes to the app's home, never to a 500", async () => {
    const csrf = await fetch(`${base()}/api/auth/csrf/idp-console`);
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    for (const callbackUrl of ["http://[", "https://evil.example/steal", "javascript:alert(1)"]) {
      const r = await fetch(`${base()}/api/auth/signin/idp-console`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl, json: "true" }).toString(),
        redirect: "manual",
      });
      expect(r.status, callbackUrl).toBe(200);
      const kept = r.headers.getSetCookie().find((c) => c.startsWith("idp-console.callback-url="));
      expect(decodeURIComponent(kept!.split(";")[0]!.split("=")[1]!), callbackUrl).toBe(`${base()}/console/dashboard`);
    }
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain("Invalid URL");
  });

  it("signs out of the portal and of the service: the next sign-in asks for the password", async () => {
    const account = await createUserWithPassword();
    const browser = newBrowser();
    await appSignIn(browser, base(), "portal", account.sub, account.password);
    const cookie = sessionCookie(browser, "portal")!;

    const foreign = await browser.fetch(`${base()}/api/auth/signout/idp-portal`, { method: "POST", headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await me(cookie)).status).toBe(200);

    const out = await browser.fetch(`${base()}/api/auth/signout/idp-portal`, { method: "POST", headers: { origin: new URL(base()).origin } });
    expect(out.status).toBe(303);
    const logout = new URL(out.location!);
    expect(`${logout.origin}${logout.pathname}`).toBe(`${base()}/oauth/logout`);
    expect(logout.searchParams.get("client_id")).toBe("idp-portal");
    expect(logout.searchParams.get("post_logout_redirect_uri")).toBe(`${base()}/account`);
    expect(logout.searchParams.get("id_token_hint")).toMatch(/^eyJ/);
    expect(sessionCookie(browser, "portal")).toBeUndefined();

    // The hint names the signed-in user, so the service ends its session without asking.
    const back = await browser.open(logout.toString());
    expect(back.url).toBe(`${base()}/account`);
    expect(back.text).toContain("Sign in to your account");

    const again = await browser.open(await startAppSignIn(browser, base(), "portal"));
    expect(again.status).toBe(200);
    expect(again.url).toContain("/login?");
    const landed = await authorizeThrough(browser, again.url, { identifier: account.sub, password: account.password });
    expect(landed.url).toBe(`${base()}/account`);
  });

  it("answers only the next-auth actions the apps use", async () => {
    for (const path of ["session", "providers", "signout", "csrf", "signin/github", "callback/credentials", "csrf/idp-console/extra"]) {
      expect((await fetch(`${base()}/api/auth/${path}`)).status, path).toBe(404);
    }
  });
});
