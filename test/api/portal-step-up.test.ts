import { decode, encode } from "next-auth/jwt";
import { describe, expect, inject, it } from "vitest";
import { createUserWithPassword } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { appSessionSecretOf, sessionCookie, startAppSignIn, trpcCall } from "../support/console.ts";
import { base } from "../support/http.ts";
import { authorizeThrough } from "../support/oidc.ts";

// The portal's step-up over HTTP, through next-auth: the ID token's auth_time reaches the session, a
// sensitive change with an older sign-in is refused in the shape the portal recognises, and a sign-in
// with prompt=login asks for the password again and makes the change possible. The server runs with
// the default IDP_REAUTH_MAX_AGE (300 s), so "older" is a session re-sealed with the server's key.

const MAX_AGE_S = 300;
const NAME = "idp-portal.session-token";

/** The portal's session cookie with its sign-in moved `secondsAgo` into the past, sealed as the server would. */
async function agedSession(cookie: string, secondsAgo: number): Promise<string> {
  const secret = appSessionSecretOf(inject("secretKey"), "portal");
  const token = (await decode({ token: cookie.slice(NAME.length + 1), secret }))!;
  return `${NAME}=${await encode({ token: { ...token, authTime: Math.floor(Date.now() / 1000) - secondsAgo }, secret, maxAge: 3600 })}`;
}

const changePassword = (cookie: string, current: string, password: string) =>
  trpcCall(base(), cookie, "portal.password.change", { current, password, locale: "en" }, "mutation");

describe("sensitive portal changes need a recent sign-in", () => {
  it("keeps auth_time from the ID token, refuses an older sign-in with portal.reauth_required, and a prompt=login sign-in lifts it", async () => {
    const account = await createUserWithPassword();
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    await authorizeThrough(browser, await startAppSignIn(browser, base(), "portal"), { identifier: account.sub, password: account.password });
    const fresh = sessionCookie(browser, "portal")!;
    const left = (await trpcCall(base(), fresh, "portal.recentSignIn")).body.result!.data.secondsLeft as number;
    expect(left).toBeGreaterThan(MAX_AGE_S - 30);
    expect(left).toBeLessThanOrEqual(MAX_AGE_S);

    const old = await agedSession(fresh, MAX_AGE_S + 1);
    expect((await trpcCall(base(), old, "portal.recentSignIn")).body.result!.data).toEqual({ secondsLeft: 0 });
    const refused = await changePassword(old, account.password, "a fine new passphrase");
    expect(refused.status).toBe(403);
    expect(refused.body.error!.data).toMatchObject({ appCode: "portal.reauth_required", httpStatus: 403 });
    expect(JSON.stringify(refused.body)).not.toContain(account.password);
    // Reading goes on; a cookie the browser edited is no session at all.
    expect((await trpcCall(base(), old, "portal.me")).status).toBe(200);
    expect((await changePassword(`${old.slice(0, -4)}AAAA`, account.password, "a fine new passphrase")).status).toBe(401);

    // Signed in at the service already, prompt=login still shows the sign-in page; the new session is recent.
    const url = await startAppSignIn(browser, base(), "portal", { prompt: "login" });
    expect(new URL(url).searchParams.get("prompt")).toBe("login");
    const login = await browser.open(url);
    expect(login.url).toContain("/login?");
    await browser.submit(login, { identifier: account.sub, password: account.password });
    const again = sessionCookie(browser, "portal")!;
    expect(again).not.toBe(fresh);
    const changed = await changePassword(again, account.password, "a fine new passphrase");
    expect(changed.status).toBe(200);
    // The change happened: the old password no longer signs in, the new one does.
    const other = new Browser({ "x-forwarded-for": uniqueIp() });
    const form = await other.open(await startAppSignIn(other, base(), "portal"));
    expect((await other.submit(form, { identifier: account.sub, password: account.password })).status).toBe(400);
    await authorizeThrough(other, await startAppSignIn(other, base(), "portal"), { identifier: account.sub, password: "a fine new passphrase" });
    expect(sessionCookie(other, "portal")).toBeDefined();
  });
});
