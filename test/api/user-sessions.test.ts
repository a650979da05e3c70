import { describe, expect, it } from "vitest";
import { createUserWithPassword, readUser } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { introspect, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

const UA = {
  phone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  laptop: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
};
const USER_SCOPES = "openid offline_access idp_api_user idp_api_usec idp_api_usec_chg idp_api_uapps idp_api_uapps_chg";

type TAccount = { sub: string; password: string };
type TTokens = { access_token: string; refresh_token: string };

/** Signs the account in through rp-web from a browser of its own; returns the browser and the tokens. */
async function signIn(account: TAccount, ua = UA.laptop, scope = USER_SCOPES): Promise<{ browser: Browser; tokens: TTokens; ip: string }> {
  const ip = uniqueIp();
  const browser = new Browser({ "user-agent": ua, "x-forwarded-for": ip });
  const { tokens } = await webTokens(browser, { scope }, { identifier: account.sub, password: account.password });
  return { browser, tokens, ip };
}

const me = (token: string) => api("GET", "/api/v3/users/current", { token });
const refresh = (t: TTokens) => tokenAs("web", { grant_type: "refresh_token", refresh_token: t.refresh_token });
const instanceOf = async (sub: string): Promise<string> => (await readUser(sub)).body.meta.instanceId;
const sysToken = (scope: string) => systemToken("users-app", scope);

async function reset(sub: string, opts: { token?: string; device?: string } = {}) {
  const headers: Record<string, string> = opts.device ? { "IDP-CI-UA-ID": opts.device } : {};
  const token = opts.token ?? (await sysToken("idp_api_sys_usec_chg"));
  return api("POST", `/api/v3/users/${await instanceOf(sub)}/sessions/reset`, { token, headers });
}

async function appsOf(sub: string) {
  return (await api("GET", `/api/v3/users/${sub}/apps`, { token: await sysToken("idp_api_sys_uapps") })).body as { id: string; name: string }[];
}

/** Whether the browser still has a session: an authorization it already consented to comes straight back. */
async function signedIn(browser: Browser): Promise<boolean> {
  const page = await browser.open(webAuthorization({ scope: USER_SCOPES }).url);
  return page.location?.startsWith(WEB.redirectUri) ?? false;
}

describe("POST /api/v3/users/{instanceId}/sessions/reset", () => {
  it("ends the sessions and refuses every token issued before, at once", async () => {
    const account = await createUserWithPassword();
    const { browser, tokens } = await signIn(account);
    expect((await me(tokens.access_token)).status).toBe(200);

    expect((await reset(account.sub)).status).toBe(204);

    const refused = await me(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "revoked_access_token" });
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    expect((await introspect(tokens.refresh_token)).body).toEqual({ active: false });
    expect((await refresh(tokens)).body.error).toBe("invalid_grant");
    expect(await signedIn(browser)).toBe(false);
    const events = await api("GET", `/api/v3/users/${account.sub}/audit?type=user.sessions_reset`, { token: await sysToken("idp_api_sys_uaud") });
    expect(events.body.events).toHaveLength(1);

    // iat has one-second precision: a token of the reset's own second counts as older.
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await signIn(account);
    expect((await me(again.tokens.access_token)).status).toBe(200);
  });

  it("spares the device IDP-CI-UA-ID names, its session and its tokens", async () => {
    const account = await createUserWithPassword();
    const phone = await signIn(account, UA.phone);
    const laptop = await signIn(account, UA.laptop);
    const phoneId = (await appsOf(account.sub)).find((d) => d.name === "Safari, iOS")!.id;

    // User mode, from the phone: "sign out everywhere else".
    expect((await reset(account.sub, { token: phone.tokens.access_token, device: phoneId })).status).toBe(204);

    expect((await me(phone.tokens.access_token)).status).toBe(200);
    expect((await introspect(phone.tokens.access_token)).body.active).toBe(true);
    expect((await refresh(phone.tokens)).status).toBe(200);
    expect(await signedIn(phone.browser)).toBe(true);
    expect((await me(laptop.tokens.access_token)).status).toBe(401);
    expect((await refresh(laptop.tokens)).body.error).toBe("invalid_grant");
    expect(await signedIn(laptop.browser)).toBe(false);
  });

  it("checks scopes, mode and subject", async () => {
    const account = await createUserWithPassword();
    const other = await createUserWithPassword();
    const { tokens } = await signIn(account);
    const narrow = await signIn(account, UA.laptop, "openid idp_api_user");
    expect((await reset(account.sub, { token: narrow.tokens.access_token })).status).toBe(401);
    expect((await reset(account.sub, { token: await sysToken("idp_api_sys_users_chg") })).status).toBe(401);
    const foreign = await reset(other.sub, { token: tokens.access_token });
    expect(foreign.status).toBe(401);
    expect(foreign.body.desc).toBe("wrong_subject");
    expect((await me(tokens.access_token)).status).toBe(200);
    const unknown = await api("POST", "/api/v3/users/bm9ib2R5.AAAAAAAAAAAAAAAA/sessions/reset", { token: await sysToken("idp_api_sys_usec_chg") });
    expect(unknown.status).toBe(404);
  });
});

describe("GET and DELETE /api/v3/users/{subjectId}/apps", () => {
  it("lists the devices signed in from, and removing one kills its tokens only", async () => {
    const account = await createUserWithPassword();
    const phone = await signIn(account, UA.phone);
    const laptop = await signIn(account, UA.laptop);
    const list = await api("GET", "/api/v3/users/current/apps", { token: laptop.tokens.access_token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const device = list.body.find((d: { name: string }) => d.name === "Safari, iOS");
    expect(device).toEqual({ id: expect.any(String), kind: "mobile", name: "Safari, iOS", firstSeen: expect.any(Number), lastSeen: expect.any(Number), lastIp: phone.ip });
    expect(Math.abs(device.lastSeen - Date.now() / 1000)).toBeLessThan(60);

    const removed = await api("DELETE", `/api/v3/users/current/apps/${device.id}`, { token: laptop.tokens.access_token });
    expect(removed.status).toBe(204);
    expect((await me(phone.tokens.access_token)).status).toBe(401);
    expect((await introspect(phone.tokens.access_token)).body).toEqual({ active: false });
    expect((await refresh(phone.tokens)).body.error).toBe("invalid_grant");
    expect(await signedIn(phone.browser)).toBe(false);
    expect((await me(laptop.tokens.access_token)).status).toBe(200);
    expect((await appsOf(account.sub)).map((d) => d.name)).toEqual(["Firefox, Linux"]);

    const again = await api("DELETE", `/api/v3/users/${account.sub}/apps/${device.id}`, { token: await sysToken("idp_api_sys_uapps_chg") });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("unknown_device");
  });

  it("checks scopes, mode and subject", async () => {
    const account = await createUserWithPassword();
    const other = await createUserWithPassword();
    const { tokens } = await signIn(account);
    const narrow = await signIn(account, UA.laptop, "openid idp_api_user");
    expect((await api("GET", "/api/v3/users/current/apps", { token: narrow.tokens.access_token })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${other.sub}/apps`, { token: tokens.access_token })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${account.sub}/apps`, { token: await sysToken("idp_api_sys_usec") })).status).toBe(401);
    expect((await api("GET", "/api/v3/users/no-such-user/apps", { token: await sysToken("idp_api_sys_uapps") })).status).toBe(404);
  });
});

describe("GET and DELETE /api/v3/users/{subjectId}/acls", () => {
  it("lists the consents, and revoking one revokes the application's refresh tokens", async () => {
    const account = await createUserWithPassword();
    const { browser, tokens } = await signIn(account);
    const list = await api("GET", `/api/v3/users/${account.sub}/acls`, { token: await sysToken("idp_api_sys_usec") });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: expect.any(String), updated: expect.any(Number), client_id: WEB.id, scopes: expect.arrayContaining(["idp_api_usec", "offline_access"]) }]);

    const removed = await api("DELETE", `/api/v3/users/current/acls/${list.body[0].id}`, { token: tokens.access_token });
    expect(removed.status).toBe(204);
    expect((await refresh(tokens)).body.error).toBe("invalid_grant");
    expect((await introspect(tokens.refresh_token)).body).toEqual({ active: false });
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${account.sub}/acls`, { token: await sysToken("idp_api_sys_usec") })).body).toEqual([]);
    // The next authorization asks again.
    expect((await browser.open(webAuthorization({ scope: USER_SCOPES }).url)).url).toContain("/consent?");

    const again = await api("DELETE", `/api/v3/users/${account.sub}/acls/${list.body[0].id}`, { token: await sysToken("idp_api_sys_usec_chg") });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("unknown_acl");
  });

  it("checks scopes, mode and subject", async () => {
    const account = await createUserWithPassword();
    const other = await createUserWithPassword();
    const { tokens } = await signIn(account);
    const narrow = await signIn(account, UA.laptop, "openid idp_api_user");
    expect((await api("GET", "/api/v3/users/current/acls", { token: narrow.tokens.access_token })).status).toBe(401);
    expect((await api("GET", `/api/v3/users/${other.sub}/acls`, { token: tokens.access_token })).status).toBe(401);
    expect((await api("DELETE", `/api/v3/users/${account.sub}/acls/x`, { token: await sysToken("idp_api_sys_usec") })).status).toBe(401);
    expect((await api("GET", "/api/v3/users/current/acls", { token: tokens.access_token })).status).toBe(200);
  });
});

describe("locking or deleting an account ends its tokens", () => {
  it("refuses every token issued before a lock, at once, and introspection says inactive", async () => {
    const account = await createUserWithPassword();
    const { tokens } = await signIn(account);
    expect((await me(tokens.access_token)).status).toBe(200);
    const locked = await api("POST", `/api/v3/users/${await instanceOf(account.sub)}`, { token: await sysToken("idp_api_sys_users_chg"), body: { locked: true } });
    expect(locked.status).toBe(200);
    expect(locked.body.locked).toBe(true);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    expect((await refresh(tokens)).body.error).toBe("invalid_grant");
  });

  it("refuses the tokens of a deleted account", async () => {
    const account = await createUserWithPassword();
    const { tokens } = await signIn(account);
    expect((await me(tokens.access_token)).status).toBe(200);
    const gone = await api("DELETE", `/api/v3/users/${await instanceOf(account.sub)}`, { token: await sysToken("idp_api_sys_users_chg") });
    expect(gone.status).toBe(204);
    const after = await me(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.body.desc).toBe("revoked_access_token");
    expect((await introspect(tokens.access_token)).body).toEqual({ active: false });
    expect((await refresh(tokens)).status).toBe(400);
  });
});
