import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createUserWithPassword, unique } from "../support/accounts.ts";
import { Browser, formOf, uniqueIp } from "../support/browser.ts";
import { appSignIn } from "../support/console.ts";
import { signInAtProvider } from "../support/external-provider.ts";
import { api, base, request, systemToken } from "../support/http.ts";
import { webTokens } from "../support/oidc.ts";

// oidc:ext and oidc:ext-stale are panva's oidc-provider, started by the global setup (test/api/global-setup.ts).
const fedIssuer = () => inject("fedIssuer");
const DONE = "https://rp.example.test/fa-done?app=1";
const sys = (client: string, scope: string) => systemToken(client, scope);

/** A user with an access token for the application and a browser signed in to the account portal. */
type TMe = { sub: string; password: string; token: string; ip: string; browser: Browser };

async function signedInUser(): Promise<TMe> {
  const me = await createUserWithPassword();
  const ip = uniqueIp();
  const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope: "openid idp_api_ufa_link idp_api_ufa" }, { identifier: me.sub, password: me.password });
  const browser = new Browser({ "x-forwarded-for": ip }, base());
  await appSignIn(browser, base(), "portal", me.sub, me.password);
  return { ...me, token: tokens.access_token, ip, browser };
}

/** redirectTo in the user's browser: the confirmation page naming the application, Link, and the provider's URL it forwards to. */
async function confirmInBrowser(browser: Browser, redirectTo: string, application = "Web application (relying party)") {
  expect(redirectTo).toMatch(new RegExp(`^${base()}/fa/start\\?req=[A-Za-z0-9_-]{43}$`));
  const page = await browser.fetch(redirectTo);
  expect(page.status).toBe(200);
  expect(page.text).toContain(application);
  const toProvider = await browser.submit(page, {});
  expect(toProvider.status).toBe(303);
  expect(toProvider.location!.startsWith(`${fedIssuer()}/`)).toBe(true);
  return toProvider.location!;
}

const startBind = (me: TMe, body: unknown) =>
  api("POST", "/api/v3/users/current/fa/bind", { token: me.token, body, headers: { "x-forwarded-for": me.ip, "user-agent": "fa-test" } });

/** From redirectTo through the provider's pages (as `login`) back to the service's callback, and the service's answer. */
async function throughProvider(authorizationUrl: string, login: string, opts: { abort?: boolean; browser?: Browser } = {}) {
  const browser = opts.browser ?? new Browser();
  const back = await signInAtProvider(browser, authorizationUrl, login, opts);
  expect(back.location!.startsWith(`${base()}/fa/callback?`)).toBe(true);
  return { callbackUrl: back.location!, answer: await browser.fetch(back.location!) };
}

async function bindThroughProvider(me: TMe, login: string, fp = "oidc:ext", opts: { abort?: boolean; isPopup?: boolean } = {}) {
  const started = await startBind(me, { fp, callback: DONE, ...(opts.isPopup ? { isPopup: true } : {}) });
  expect(started.status).toBe(200);
  return throughProvider(await confirmInBrowser(me.browser, started.body.redirectTo), login, { browser: me.browser, abort: opts.abort });
}

const outcomeOf = (location: string | undefined) => Object.fromEntries(new URL(location!).searchParams);
const bindingsOf = async (sub: string) => (await api("GET", `/api/v3/users/${sub}/fa`, { token: await sys("users-app", "idp_api_sys_ufa") })).body;
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await sys("users-app", "idp_api_sys_uaud") })).body.events as { clientId?: string; ip?: string; params: Record<string, unknown> }[];
const readTokens = async (sub: string, fp = "oidc/ext", token?: string) => api("GET", `/api/v3/users/${sub}/fedToken/${fp}`, { token: token ?? (await sys("fa-app", "fed_tkn_any")) });
const refreshesAt = async (sub: string) => (await request(`/test/refreshes?sub=${sub}`, {}, fedIssuer())).body.refreshes as number;
const userinfoWith = (token: string) => request("/me", { headers: { authorization: `Bearer ${token}` } }, fedIssuer());

/** Every file the server wrote (its database, on the embedded one, and its log), as text. */
function everythingStored(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f).toString("latin1"))
    .join("\n");
}

describe("binding an external account through its provider (v3, user mode)", () => {
  it("binds through the provider's own pages, tells the application, records the event and refuses the state a second time", async () => {
    const me = await signedInUser();
    const login = unique("ext-");
    const started = await startBind(me, { fp: "oidc:ext", callback: DONE });
    expect(started.status).toBe(200);
    const authorizationUrl = await confirmInBrowser(me.browser, started.body.redirectTo);
    const to = new URL(authorizationUrl);
    expect(to.origin).toBe(fedIssuer());
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ response_type: "code", client_id: "idp-service", redirect_uri: `${base()}/fa/callback`, code_challenge_method: "S256", scope: "openid profile email" });
    expect(to.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(to.searchParams.get("nonce")).toBeTruthy();

    const { callbackUrl, answer } = await throughProvider(authorizationUrl, login, { browser: me.browser });
    expect(answer.status).toBe(302);
    expect(answer.location!.startsWith("https://rp.example.test/fa-done?")).toBe(true);
    expect(outcomeOf(answer.location)).toEqual({ app: "1", result: "bound", fp: "oidc:ext", sid: login });
    expect(await bindingsOf(me.sub)).toEqual([{ sid: login, fpType: "oidc", fpName: "ext", userName: login }]);
    const [event] = await eventsOf(me.sub, "user.fa_bound");
    expect(event).toMatchObject({ clientId: "rp-web", params: { via: "redirect", provider: "oidc:ext", sid: login, rebound: false } });

    const replay = await new Browser().fetch(callbackUrl);
    expect(replay.status).toBe(400);
    expect(replay.headers.get("content-type")).toContain("text/html");
    expect(replay.text).toMatch(/unknown, used already or expired|неизвестна, уже использована/);
  });

  it("refuses a wrong or missing state with a page, and shows the provider's refusal to the application", async () => {
    for (const q of ["state=not-a-state-we-sent-0123456789&code=abc", "code=abc", "state=x&error=access_denied"]) {
      const page = await request(`/fa/callback?${q}`);
      expect(page.status).toBe(400);
      expect(page.text).toMatch(/<html lang="(ru|en)">/);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
    const me = await signedInUser();
    const { answer } = await bindThroughProvider(me, unique("ext-"), "oidc:ext", { abort: true });
    expect(answer.status).toBe(302);
    expect(outcomeOf(answer.location)).toMatchObject({ app: "1", result: "error", fp: "oidc:ext", error: "fp_refused" });
    expect(await bindingsOf(me.sub)).toEqual([]);
    const [failed] = await eventsOf(me.sub, "user.fa_bind_failed");
    expect(failed!.params).toMatchObject({ via: "redirect", provider: "oidc:ext", reason: "fp_refused" });
    expect(String(failed!.params.detail)).toContain("access_denied");
  });

  it("answers fa_bound_to_other_user when the external account is another user's, changing nothing", async () => {
    const [a, b] = [await signedInUser(), await signedInUser()];
    const login = unique("ext-");
    expect(outcomeOf((await bindThroughProvider(a, login)).answer.location)).toMatchObject({ result: "bound" });
    const { answer } = await bindThroughProvider(b, login);
    expect(outcomeOf(answer.location)).toMatchObject({ result: "error", error: "fa_bound_to_other_user", error_description: "this external account is bound to another user" });
    expect(await bindingsOf(b.sub)).toEqual([]);
    expect(await bindingsOf(a.sub)).toEqual([{ sid: login, fpType: "oidc", fpName: "ext", userName: login }]);
    expect((await eventsOf(b.sub, "user.fa_bind_failed"))[0]!.params).toMatchObject({ reason: "fa_bound_to_other_user", sid: login });
  });

  it("hands a popup's outcome to its opener only, on the callback's origin", async () => {
    const me = await signedInUser();
    const { answer } = await bindThroughProvider(me, unique("ext-"), "oidc:ext", { isPopup: true });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[^']+'/);
    const data = JSON.parse(/<script type="application\/json" id="outcome">([^<]*)<\/script>/.exec(answer.text)![1]!);
    expect(data).toMatchObject({ origin: "https://rp.example.test", message: { type: "idp.fa_bind", result: "bound", fp: "oidc:ext" } });
  });

  it("binds nothing when the attacker's link is finished in another browser (linking fixation), whoever is signed in there", async () => {
    const [attacker, victim] = [await signedInUser(), await signedInUser()];
    const victimLogin = unique("ext-");
    // The handle itself: the victim's browser is signed in as someone else; a browser without the portal's session only gets its sign-in.
    const handle = (await startBind(attacker, { fp: "oidc:ext", callback: DONE })).body.redirectTo;
    const elsewhere = await victim.browser.fetch(handle);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.text).toMatch(/another account|другой учётной записи/);
    const fresh = await new Browser().fetch(handle);
    expect(fresh.status).toBe(302);
    expect(fresh.location).toBe(`${base()}/account/fa/continue?${new URL(handle).search.slice(1)}`);

    // The provider's URL, taken from the attacker's own browser after Link, then opened by the victim (signed in to the portal or not).
    for (const browser of [victim.browser, new Browser()]) {
      const started = await startBind(attacker, { fp: "oidc:ext", callback: DONE });
      const authorizationUrl = await confirmInBrowser(attacker.browser, started.body.redirectTo);
      const { answer } = await throughProvider(authorizationUrl, victimLogin, { browser });
      expect(answer.status).toBe(302);
      expect(outcomeOf(answer.location)).toMatchObject({ app: "1", result: "error", fp: "oidc:ext", error: "fp_refused" });
      expect(outcomeOf(answer.location).sid).toBeUndefined();
    }
    expect(await bindingsOf(attacker.sub)).toEqual([]);
    expect(await bindingsOf(victim.sub)).toEqual([]);
    expect((await readTokens(attacker.sub)).status).toBe(404);
    const [failed] = await eventsOf(attacker.sub, "user.fa_bind_failed");
    expect(failed!.params).toMatchObject({ reason: "fp_refused" });
    expect(String(failed!.params.detail)).toMatch(/another browser|not signed in to the account portal/);
    // The victim can still bind that external account to themselves.
    expect(outcomeOf((await bindThroughProvider(victim, victimLogin)).answer.location)).toMatchObject({ result: "bound", sid: victimLogin });
  });

  it("binds only after Link on the confirmation page, whose form must come from this browser", async () => {
    const me = await signedInUser();
    const started = await startBind(me, { fp: "oidc:ext", callback: DONE });
    const page = await me.browser.fetch(started.body.redirectTo);
    expect(page.status).toBe(200);
    expect(page.text).toContain("oidc:ext");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const post = (fields: Record<string, string>) =>
      me.browser.fetch(`${base()}/fa/start`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
    const req = new URL(started.body.redirectTo).searchParams.get("req")!;
    expect((await post({ req })).status).toBe(403);
    expect((await post({ req, csrf_token: "forged" })).status).toBe(403);
    // Still usable: the refused posts did not spend the handle.
    const ok = await me.browser.submit(page, {});
    expect(ok.status).toBe(303);
    expect(ok.location!.startsWith(`${fedIssuer()}/`)).toBe(true);
    expect(ok.headers.getSetCookie().join("\n")).toMatch(/idp_fa_bind_[^=]+=[^;]+; Path=[^;]*\/fa\/callback; Max-Age=600; HttpOnly; SameSite=Lax/);
    expect((await post({ req, csrf_token: formOf(page.text).hidden.csrf_token! })).status).toBe(400);
  });

  it("refuses a bad provider, a callback off the application's origins and the wrong token with 4xx in the contract's shape", async () => {
    const me = await signedInUser();
    for (const callback of ["https://evil.example.test/cb", "javascript:alert(1)", "/relative", "https://user:pw@rp.example.test/cb"]) {
      const r = await startBind(me, { fp: "oidc:ext", callback });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ type: "input_error", error: "wrong_values", errors: [{ error: "wrong_value", pos: "callback" }] });
    }
    expect((await startBind(me, { fp: "ext", callback: DONE })).body).toMatchObject({ type: "input_error", errors: [{ pos: "fp" }] });
    expect((await startBind(me, { fp: "oidc:ext", callback: DONE, extra: 1 })).status).toBe(400);
    const unknown = await startBind(me, { fp: "oidc:nowhere", callback: DONE });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: "not_found_error", error: "unknown_fp" });
    // The service's own origin is allowed: the portal links accounts through the same flow.
    expect((await startBind(me, { fp: "oidc:ext", callback: `${base()}/account` })).status).toBe(200);
    const system = await api("POST", "/api/v3/users/current/fa/bind", { token: await sys("fa-app", "idp_api_sys_ufa"), body: { fp: "oidc:ext", callback: DONE } });
    expect(system.status).toBe(401);
    expect(system.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    const other = await api("POST", `/api/v3/users/${me.sub}-other/fa/bind`, { token: me.token, body: { fp: "oidc:ext", callback: DONE } });
    expect(other.status).toBe(401);
  });
});

describe("binding through the older v2 operation (HTTP Basic)", () => {
  const v2 = (body: unknown, basic: [string, string] = ["fa-app", "fa-app-rest-password"]) => api("POST", "/api/v2/users/current/fa/bind", { basic, body });

  it("binds to the person signed in at the service in the browser, through the portal's sign-in", async () => {
    const me = await createUserWithPassword();
    const login = unique("ext-");
    const started = await v2({ fp: "oidc:ext", callback: "https://fa-app.example.test/cb" });
    expect(started.status).toBe(200);
    expect(started.headers.get("deprecation")).toBeTruthy();
    expect(started.body.redirectTo).toMatch(new RegExp(`^${base()}/fa/start\\?req=[A-Za-z0-9_-]{43}$`));

    const browser = new Browser({ "x-forwarded-for": uniqueIp() }, base());
    const noSession = await browser.fetch(started.body.redirectTo);
    expect(noSession.status).toBe(302);
    expect(noSession.location).toBe(`${base()}/account/fa/continue?${new URL(started.body.redirectTo).search.slice(1)}`);
    await appSignIn(browser, base(), "portal", me.sub, me.password);
    const back = await browser.fetch(noSession.location!);
    expect([303, 307]).toContain(back.status);
    expect(back.location).toBe(started.body.redirectTo);

    const { answer } = await throughProvider(await confirmInBrowser(browser, started.body.redirectTo, "External accounts application"), login, { browser });
    expect(outcomeOf(answer.location)).toEqual({ result: "bound", fp: "oidc:ext", sid: login });
    expect(answer.location!.startsWith("https://fa-app.example.test/cb?")).toBe(true);
    expect(await bindingsOf(me.sub)).toEqual([{ sid: login, fpType: "oidc", fpName: "ext", userName: login }]);
    expect((await eventsOf(me.sub, "user.fa_bound"))[0]).toMatchObject({ clientId: "fa-app", params: { via: "redirect" } });

    const again = await browser.fetch(started.body.redirectTo);
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/unknown, used already or expired|неизвестна, уже использована/);
  });

  it("refuses a wrong password, an application without idp_api_ufa_link and a foreign callback in the v2 shape", async () => {
    expect((await v2({ fp: "oidc:ext", callback: "https://fa-app.example.test/cb" }, ["fa-app", "wrong"])).status).toBe(401);
    const noScope = await v2({ fp: "oidc:ext", callback: "https://fa-app.example.test/cb" }, ["users-app", "users-rest-password"]);
    expect(noScope.status).toBe(403);
    const foreign = await v2({ fp: "oidc:ext", callback: "https://rp.example.test/callback" });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ errors: [{ code: "wrong_value", params: { field: "callback" } }] });
    expect((await v2({ fp: "oidc:nowhere", callback: "https://fa-app.example.test/cb" })).status).toBe(404);
  });
});

describe("stored external tokens", () => {
  it("are stored sealed, read with fed_tkn_any or the provider's own scope, and work at the provider", async () => {
    const me = await signedInUser();
    const login = unique("tkn-");
    await bindThroughProvider(me, login);
    const read = await readTokens(me.sub);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual([login]);
    const { token, expiresOn } = read.body[login];
    expect(expiresOn).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect((await userinfoWith(token)).body).toMatchObject({ sub: login });
    expect((await readTokens(me.sub, "oidc/ext", await sys("fa-tkn-app", "fed_tkn_oidc_ext"))).body).toEqual(read.body);
    expect(await refreshesAt(login)).toBe(0);

    if (inject("dbKind") === "postgres") {
      const db = new pg.Client({ connectionString: inject("databaseUrl") });
      await db.connect();
      const { rows } = await db.query("SELECT access_token, refresh_token FROM external_tokens WHERE sid = $1", [login]);
      await db.end();
      expect(rows).toHaveLength(1);
      expect(rows[0].access_token).toMatch(/^v2\./);
      expect(rows[0].refresh_token).toMatch(/^v2\./);
    }
    // Neither the database's files (embedded) nor the server's log hold the token in the clear.
    expect(everythingStored(inject("dataDir")).includes(token)).toBe(false);
  });

  it("follow the scope rules: another provider's scope, a non-token scope or a user token is 401 bad_access_token", async () => {
    const me = await signedInUser();
    await bindThroughProvider(me, unique("tkn-"));
    for (const token of [await sys("fa-social-app", "fed_tkn_oauth2_social"), await sys("fa-app", "idp_api_sys_ufa"), me.token]) {
      const r = await readTokens(me.sub, "oidc/ext", token);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    }
    const social = await readTokens(me.sub, "oauth2/social", await sys("fa-social-app", "fed_tkn_oauth2_social"));
    expect(social.status).toBe(404);
    expect(social.body).toMatchObject({ type: "not_found_error", error: "token_not_found" });
    const corp = await readTokens(me.sub, "oidc/corp");
    expect(corp.status).toBe(404);
    expect(corp.body.desc).toBe("this external provider does not remember tokens");
    expect((await readTokens(me.sub, "oidc/nowhere")).status).toBe(404);
    expect((await readTokens("nobody-" + unique(""), "oidc/ext")).status).toBe(404);
  });

  it("refresh a stale token first, once for parallel reads, keep the rotated refresh token, and drop it cleanly when the provider refuses", async () => {
    const me = await signedInUser();
    const login = unique("stale-");
    expect(outcomeOf((await bindThroughProvider(me, login, "oidc:ext-stale")).answer.location)).toMatchObject({ result: "bound" });
    const first = await readTokens(me.sub, "oidc/ext-stale");
    expect(first.status).toBe(200);
    expect(await refreshesAt(login)).toBe(1);
    const second = await readTokens(me.sub, "oidc/ext-stale");
    expect(second.body[login].token).not.toBe(first.body[login].token);
    expect(await refreshesAt(login)).toBe(2);
    expect((await userinfoWith(second.body[login].token)).body).toMatchObject({ sub: login });

    // The provider answers slowly, so all five reads surely find the one refresh in flight.
    await request("/test/slow?ms=700", { method: "POST" }, fedIssuer());
    const parallel = await Promise.all(Array.from({ length: 5 }, () => readTokens(me.sub, "oidc/ext-stale"))).finally(() => request("/test/slow?ms=0", { method: "POST" }, fedIssuer()));
    expect(parallel.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(parallel.map((r) => r.body[login].token)).size).toBe(1);
    expect(await refreshesAt(login)).toBe(3);

    expect((await request(`/test/revoke?sub=${login}`, { method: "POST" }, fedIssuer())).status).toBe(204);
    const refused = await readTokens(me.sub, "oidc/ext-stale");
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ type: "not_found_error", error: "token_not_found" });
    expect(refused.body.desc).toContain("refused to refresh");
    const [dropped, ...more] = await eventsOf(me.sub, "user.fa_token_dropped");
    expect(more).toEqual([]);
    expect(dropped).toMatchObject({ clientId: "fa-app", params: { provider: "oidc:ext-stale", sid: login, reason: "the provider refused the refresh token" } });
    const gone = await readTokens(me.sub, "oidc/ext-stale");
    expect(gone.status).toBe(404);
    expect(gone.body.desc).toBe("no stored token of this external provider");
    expect(await bindingsOf(me.sub)).toEqual([{ sid: login, fpType: "oidc", fpName: "ext-stale", userName: login }]);
  });

  it("come from a plain OAuth 2.0 provider too, whose account is read from its userinfo endpoint", async () => {
    const me = await signedInUser();
    const login = unique("plain-");
    const started = await startBind(me, { fp: "oauth2:ext-plain", callback: DONE });
    expect(started.status).toBe(200);
    const authorizationUrl = await confirmInBrowser(me.browser, started.body.redirectTo);
    const to = new URL(authorizationUrl);
    expect(`${to.origin}${to.pathname}`).toBe(`${fedIssuer()}/auth`);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    const { answer } = await throughProvider(authorizationUrl, login, { browser: me.browser });
    expect(outcomeOf(answer.location)).toEqual({ app: "1", result: "bound", fp: "oauth2:ext-plain", sid: login });
    expect(await bindingsOf(me.sub)).toEqual([{ sid: login, fpType: "oauth2", fpName: "ext-plain", userName: login }]);
    const read = await readTokens(me.sub, "oauth2/ext-plain");
    expect(read.status).toBe(200);
    expect(Object.keys(read.body)).toEqual([login]);
    expect((await userinfoWith(read.body[login].token)).body).toMatchObject({ sub: login });
  });

  it("go with the binding when it is removed", async () => {
    const me = await signedInUser();
    const login = unique("tkn-");
    await bindThroughProvider(me, login);
    expect((await readTokens(me.sub)).status).toBe(200);
    const removed = await api("DELETE", `/api/v3/users/${me.sub}/fa/oidc/ext/${login}`, { token: await sys("users-app", "idp_api_sys_ufa_chg") });
    expect(removed.status).toBe(204);
    expect((await readTokens(me.sub)).status).toBe(404);
  });
});
