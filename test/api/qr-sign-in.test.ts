import { readFileSync } from "node:fs";
import * as oidc from "openid-client";
import { describe, expect, inject, it } from "vitest";
import { changeUser, createUserWithPassword, readUser } from "../support/accounts.ts";
import { alertOf, Browser, uniqueIp, type TPage } from "../support/browser.ts";
import { api, base, request, systemToken } from "../support/http.ts";
import { codeOf, waitForMessage } from "../support/inbox.ts";
import { serverOfItsOwn } from "../support/own-server.ts";
import { authorizeThrough, callbackParams, IVANOV, SPA, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

// QR sign-in end to end: a browser without JavaScript shows the QR code on the sign-in page; a user
// signed in on another device confirms or refuses it through the API with their own token; the
// waiting browser then finishes the authorization like a password sign-in, or says why it cannot.

const UA = {
  laptop: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  phone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
};
const CODE = /<code id="qr-code">([A-Z2-7]{26})<\/code>/;
type TAccount = { sub: string; password: string };
type TWaiting = { browser: Browser; page: TPage; code: string; ip: string; verifier?: string };

/**
 * A user-mode token of `account` from "their phone": rp-spa, a first-party application (only those
 * may confirm), with the scope the QR operations need; `browser` holds the phone's session.
 */
async function phoneToken(account: TAccount, origin = base(), scope = "openid idp_qr_auth"): Promise<{ token: string; ip: string; browser: Browser; idToken: string }> {
  const ip = uniqueIp();
  const browser = new Browser({ "user-agent": UA.phone, "x-forwarded-for": ip }, origin);
  const { url, verifier } = webAuthorization({ scope, client_id: SPA.id, redirect_uri: SPA.redirectUri }, origin);
  const code = callbackParams(await authorizeThrough(browser, url, { identifier: account.sub, password: account.password })).get("code")!;
  const r = await tokenAs("spa", { grant_type: "authorization_code", code, redirect_uri: SPA.redirectUri, code_verifier: verifier }, origin);
  if (r.status !== 200) throw new Error(`phone token: ${r.status} ${r.text}`);
  return { token: r.body.access_token, ip, browser, idToken: r.body.id_token };
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

/** The form of a page that posts to `pathPart`, with its hidden fields. */
function formTo(page: TPage, pathPart: string): { action: string; hidden: Record<string, string> } {
  for (const m of page.text.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const action = m[1]!.replace(/&amp;/g, "&");
    if (!new URL(action).pathname.endsWith(pathPart)) continue;
    const hidden = Object.fromEntries([...m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((h) => [h[1]!, h[2]!]));
    return { action, hidden };
  }
  throw new Error(`no form to ${pathPart} on ${page.url}:\n${page.text.slice(0, 400)}`);
}

function postForm(browser: Browser, form: { action: string; hidden: Record<string, string> }, fields: Record<string, string> = {}): Promise<TPage> {
  const body = new URLSearchParams({ ...form.hidden, ...fields }).toString();
  return browser.open(form.action, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
}

/** Presses "Use a QR code instead" on a login page; returns the waiting page and the code it shows. */
async function showQr(browser: Browser, login: TPage): Promise<TPage & { code: string }> {
  expect(login.url).toContain("/login?");
  const page = await postForm(browser, formTo(login, "/login/qr"));
  expect(page.status).toBe(200);
  const code = CODE.exec(page.text)?.[1];
  if (!code) throw new Error(`no code on the waiting page:\n${page.text.slice(0, 600)}`);
  return { ...page, code };
}

/** A browser without JavaScript at rp-web's sign-in page, switched to the QR code. */
async function waitingBrowser(origin = base(), scope = "openid profile idp_api_user"): Promise<TWaiting> {
  const ip = uniqueIp();
  const browser = new Browser({ "user-agent": UA.laptop, "x-forwarded-for": ip, "accept-language": "en" }, origin);
  const { url, verifier } = webAuthorization({ scope }, origin);
  const page = await showQr(browser, await browser.open(url));
  return { browser, page, code: page.code, ip, verifier };
}

function qrCall(token: string, code: string, action: "" | "/confirm" | "/refuse", opts: { ip?: string; device?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, "user-agent": UA.phone, "x-forwarded-for": opts.ip ?? "203.0.113.9" };
  if (opts.device) headers["IDP-CI-UA-ID"] = opts.device;
  return request(`/api/v3/auth/qr/${encodeURIComponent(code)}${action}`, { method: action ? "POST" : "GET", headers }, opts.origin);
}

/** The waiting page reloaded (as its meta refresh does), consenting for the user when asked. */
async function reload(w: TWaiting): Promise<TPage> {
  const page = await w.browser.open(w.page.url);
  if (page.status === 200 && page.url.includes("/consent?")) return postForm(w.browser, formTo(page, "/consent"), { decision: "allow" });
  return page;
}

const auditOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as {
    type: string;
    clientId: string;
    ip: string;
    userAgent: string;
    params: Record<string, unknown>;
  }[];

describe("QR sign-in through the sign-in page (no JavaScript) and the API", () => {
  it("signs the waiting browser in as the user who confirmed, and openid-client gets their tokens", async () => {
    const account = await createUserWithPassword();
    const phone = await phoneToken(account);
    const config = await oidc.discovery(new URL(base()), WEB.id, WEB.secret, oidc.ClientSecretBasic(WEB.secret), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const [state, nonce] = [oidc.randomState(), oidc.randomNonce()];
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: WEB.redirectUri,
      scope: "openid profile idp_api_user",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const ip = uniqueIp();
    const browser = new Browser({ "user-agent": UA.laptop, "x-forwarded-for": ip, "accept-language": "en" });
    const login = await browser.open(url.toString());
    expect(login.text).toContain("Use a QR code instead");
    const page = await showQr(browser, login);
    const w: TWaiting = { browser, page, code: page.code, ip };

    // The waiting page: the QR code as inline SVG, the code as text, a reload every 2 s without JavaScript.
    expect(page.url).toMatch(/\/login\/qr\?flow=/);
    expect(page.text).toMatch(/<svg [^>]*role="img"[^>]*><title>QR code for signing in<\/title>/);
    expect(page.text).toContain('<noscript><meta http-equiv="refresh" content="2"></noscript>');
    expect(page.text).toContain('role="status"');
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[^']+'; connect-src 'self';/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    // A reload shows the same code (derived again from the browser's cookie, never stored).
    expect(CODE.exec((await browser.open(page.url)).text)?.[1]).toBe(w.code);

    const asked = await qrCall(phone.token, w.code, "", { ip: phone.ip });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      client: { id: WEB.id, name: "Web application (relying party)" },
      device: { kind: "desktop", name: "Firefox, Linux" },
      ip,
      created: expect.any(Number),
      expiresOn: expect.any(Number),
    });
    expect(asked.body.expiresOn - asked.body.created).toBe(120);
    expect(JSON.stringify(asked.body)).not.toContain(w.code);

    const confirmed = await qrCall(phone.token, w.code, "/confirm", { ip: phone.ip, device: "phone-device-1" });
    expect(confirmed.status).toBe(204);

    // The next reload signs the browser in; consent is asked as after a password, then back to the client.
    const back = await reload(w);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.location!), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    // The session inherits the phone's sign-in: its time and its methods, plus "qr" (never "now"); so
    // acr is "0": nobody proved who they are during this authorization, the phone vouched for them.
    const phoneClaims = claimsOf(phone.token);
    expect(tokens.claims()).toMatchObject({ sub: account.sub, aud: WEB.id, nonce, acr: "0", amr: ["pwd", "qr"], auth_time: phoneClaims.auth_time });
    expect((await api("GET", "/api/v3/users/current", { token: tokens.access_token })).body.sub).toBe(account.sub);

    // A code works once.
    const again = await qrCall(phone.token, w.code, "/confirm");
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ type: "process_error", error: "qr_code_used", desc: expect.any(String), params: {} });
    expect((await qrCall(phone.token, w.code, "")).status).toBe(409);

    // The decision carries the phone's user-mode headers; the sign-in the laptop's address.
    const [decision] = await auditOf(account.sub, "user.qr_confirmed");
    expect(decision).toMatchObject({ clientId: SPA.id, ip: phone.ip, userAgent: UA.phone, params: { device: "phone-device-1", signInTo: WEB.id } });
    const signIns = await auditOf(account.sub, "user.signed_in");
    expect(signIns[0]).toMatchObject({ clientId: WEB.id, ip, userAgent: UA.laptop, params: { method: "qr" } });
    const failed = await auditOf(account.sub, "user.qr_decision_failed");
    expect(failed.map((e) => e.params.reason)).toEqual(["qr_code_used"]);

    // The code travelled in API paths, but never reaches the log.
    await new Promise((r) => setTimeout(r, 200));
    expect(readFileSync(inject("serverLog"), "utf8")).not.toContain(w.code);
  });

  it("never treats a QR sign-in confirmed from a recovered session as a recovery: no new-password step", async () => {
    // The phone's session came from "Forgot password?", so its amr is ["email"]; the QR sign-in inherits it.
    const account = await createUserWithPassword();
    const email = `qr-rec-${account.sub}@example.test`;
    expect((await changeUser(account.instanceId, { email: { value: email, vrf: true } })).status).toBe(200);
    const ip = uniqueIp();
    const phoneBrowser = new Browser({ "user-agent": UA.phone, "x-forwarded-for": ip, "accept-language": "en" });
    const { url, verifier } = webAuthorization({ scope: "openid idp_qr_auth", client_id: SPA.id, redirect_uri: SPA.redirectUri });
    const login = await phoneBrowser.open(url);
    const recover = await phoneBrowser.open(new URL(/href="([^"]*\/login\/recover\?[^"]*)"/.exec(login.text)![1]!.replace(/&amp;/g, "&"), login.url).toString());
    const codePage = await phoneBrowser.submit(recover, { address: email });
    const mail = await waitForMessage(email);
    const newPassword = await phoneBrowser.submit(codePage, { code: codeOf(mail) });
    expect(newPassword.url).toContain("/login/recover/password?");
    const done = await phoneBrowser.submit(newPassword, { password: "recovered on the phone first", repeat: "recovered on the phone first" });
    const r = await tokenAs("spa", { grant_type: "authorization_code", code: callbackParams(done).get("code")!, redirect_uri: SPA.redirectUri, code_verifier: verifier });
    expect(claimsOf(r.body.id_token).amr).toEqual(["email"]);

    const w = await waitingBrowser();
    expect((await qrCall(r.body.access_token, w.code, "/confirm", { ip })).status).toBe(204);
    const signedIn = await reload(w);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toMatch(/^https:\/\/rp\.example\.test\/callback\?code=/);
    // The password set on the phone still signs in: the QR browser changed nothing.
    await expect(webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), {}, { identifier: account.sub, password: "recovered on the phone first" })).resolves.toBeTruthy();
  });

  it("shows a refusal in words and offers a new code; the refused code is done", async () => {
    const account = await createUserWithPassword();
    const phone = await phoneToken(account);
    const w = await waitingBrowser();
    expect((await qrCall(phone.token, w.code, "/refuse", { ip: phone.ip })).status).toBe(204);

    const refused = await reload(w);
    expect(refused.status).toBe(200);
    expect(alertOf(refused.text)).toBe("The sign-in was refused on the other device.");
    expect(refused.text).not.toContain("http-equiv");
    expect((await qrCall(phone.token, w.code, "/confirm")).body.error).toBe("qr_code_used");
    expect((await auditOf(account.sub, "user.qr_refused"))[0]).toMatchObject({ ip: phone.ip, userAgent: UA.phone, params: { signInTo: WEB.id } });

    // "Show a new QR code": a fresh code; the old one is gone, the new one works.
    const fresh = await postForm(w.browser, formTo(refused, "/login/qr"));
    const code = CODE.exec(fresh.text)![1]!;
    expect(code).not.toBe(w.code);
    expect((await qrCall(phone.token, w.code, "")).status).toBe(404);
    expect((await qrCall(phone.token, code, "/confirm")).status).toBe(204);
    expect(callbackParams(await reload({ ...w, page: fresh })).get("code")).toEqual(expect.any(String));
  });

  it("lets exactly one of parallel confirmations win, and signs in its user", async () => {
    const [a, b] = [await createUserWithPassword(), await createUserWithPassword()];
    const tokens = [await phoneToken(a), await phoneToken(b)];
    const w = await waitingBrowser();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => qrCall(tokens[i % 2]!.token, w.code, "/confirm")));
    const won = answers.flatMap((r, i) => (r.status === 204 ? [i] : []));
    expect(won).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409 && r.body.error === "qr_code_used")).toHaveLength(9);
    const winner = won[0]! % 2 === 0 ? a : b;

    const code = callbackParams(await reload(w)).get("code")!;
    const grant = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: w.verifier! });
    expect(grant.status).toBe(200);
    expect((await api("GET", "/api/v3/users/current", { token: grant.body.access_token })).body.sub).toBe(winner.sub);
  });

  it("refuses a locked account, before and after its confirmation", async () => {
    const account = await createUserWithPassword();
    const phone = await phoneToken(account);
    const lock = async (locked: boolean) => expect((await changeUser((await readUser(account.sub)).body.meta.instanceId, { locked })).status).toBe(200);

    // Confirmed, then locked before the browser came back: the browser is not signed in.
    const w = await waitingBrowser();
    expect((await qrCall(phone.token, w.code, "/confirm")).status).toBe(204);
    await lock(true);
    const page = await reload(w);
    expect(page.status).toBe(200);
    expect(alertOf(page.text)).toBe("This account is locked. Contact your administrator.");
    expect(page.headers.get("set-cookie") ?? "").not.toContain("idp_session");

    // Locked first: the confirmation is refused (the token may already be refused as a whole).
    const w2 = await waitingBrowser();
    const refused = await qrCall(phone.token, w2.code, "/confirm");
    if (refused.status === 403) expect(refused.body).toEqual({ type: "security_error", error: "account_locked", desc: "account locked" });
    else expect(refused.body).toMatchObject({ type: "security_error", error: "bad_access_token" });
    expect(CODE.exec((await reload(w2)).text)?.[1]).toBe(w2.code);
    await lock(false);
  });

  it("answers unknown codes, wrong scopes and system tokens in the contract's shapes", async () => {
    const phone = await phoneToken(IVANOV);
    const unknown = await qrCall(phone.token, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "/confirm");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ type: "not_found_error", error: "unknown_qr_code", desc: "QR code not found" });
    expect((await qrCall(phone.token, "not a code", "")).status).toBe(404);

    const w = await waitingBrowser();
    // The contract answers a token without the operation's scope with 401 security_error (not 403).
    const narrow = await phoneToken(IVANOV, base(), "openid idp_api_user");
    const scope = await qrCall(narrow.token, w.code, "/confirm");
    expect(scope.status).toBe(401);
    expect(scope.body).toEqual({ type: "security_error", error: "bad_access_token", desc: "missing scopes: idp_qr_auth" });
    const system = await qrCall(await systemToken("users-app", "idp_api_sys_users"), w.code, "");
    expect(system.status).toBe(401);
    expect(system.body.desc).toMatch(/does not accept system-mode tokens/);
    expect((await request(`/api/v3/auth/qr/${w.code}/confirm`, { method: "POST" })).status).toBe(401);
    // Nothing of that decided the code.
    expect((await qrCall(phone.token, w.code, "")).status).toBe(200);
  });

  it("keeps the waiting page to the browser that started it", async () => {
    const w = await waitingBrowser();
    const stranger = new Browser({ "accept-language": "en" });
    const page = await stranger.open(w.page.url);
    expect(page.status).toBe(403);
    expect(page.text).not.toContain(w.code);
    const status = await w.browser.open(w.page.url.replace("/login/qr?", "/login/qr/status?"));
    expect(JSON.parse(status.text)).toEqual({ state: "waiting" });
  });
});

describe("where QR sign-in is offered", () => {
  it("not where the application asks for a fresh sign-in (prompt=login, max_age): a QR sign-in inherits an older one", async () => {
    for (const extra of [{}, { prompt: "login" }, { max_age: "60" }] as Record<string, string>[]) {
      const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
      const login = await browser.open(webAuthorization({ scope: "openid", ...extra }).url);
      expect(login.url, JSON.stringify(extra)).toContain("/login?");
      expect(login.text.includes("Use a QR code instead"), JSON.stringify(extra)).toBe(Object.keys(extra).length === 0);
    }
  });
});

const REFUSED_DESC = "only first-party applications may read, confirm or refuse QR sign-ins";

describe("who may confirm a QR sign-in", () => {
  it("not a third-party application's token, nor a token whose session has ended; the code keeps waiting for a real one", async () => {
    const account = await createUserWithPassword();
    const w = await waitingBrowser();
    // rp-web's users may grant it idp_qr_auth, but it is not first-party: it cannot vouch for a sign-in elsewhere.
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": uniqueIp() }), { scope: "openid idp_qr_auth" }, { identifier: account.sub, password: account.password });
    const third = await qrCall(tokens.access_token, w.code, "/confirm");
    expect(third.status).toBe(403);
    expect(third.body).toEqual({ type: "security_error", error: "client_not_allowed", desc: REFUSED_DESC });
    // Nor may it read the waiting browser's address and device, or refuse the sign-in.
    for (const action of ["", "/refuse"] as const) {
      const other = await qrCall(tokens.access_token, w.code, action);
      expect(other.status, action).toBe(403);
      expect(other.body).toEqual({ type: "security_error", error: "client_not_allowed", desc: REFUSED_DESC });
    }

    // The phone signs out at the service: its access token stood for that sign-in and is cut off with it.
    const phone = await phoneToken(account);
    const out = await phone.browser.fetch(`${base()}/oauth/logout?${new URLSearchParams({ id_token_hint: phone.idToken, post_logout_redirect_uri: SPA.logoutUri })}`);
    expect(out.status).toBe(302);
    const ended = await qrCall(phone.token, w.code, "/confirm");
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ type: "security_error", error: "bad_access_token", desc: "revoked_access_token" });

    const still = await reload(w);
    expect(still.status).toBe(200);
    expect(CODE.exec(still.text)?.[1]).toBe(w.code);
    expect((await auditOf(account.sub, "user.qr_decision_failed")).map((e) => e.params.reason)).toEqual(["client_not_allowed", "client_not_allowed"]);
    const live = await phoneToken(account);
    expect((await qrCall(live.token, w.code, "/confirm")).status).toBe(204);
  });
});

describe("QR codes that expire", () => {
  // A server of its own whose codes live 2 s, so the test can wait one out.
  const own = serverOfItsOwn("qr", { IDP_QR_CODE_TTL: "2" });

  it("refuses a decision on an expired code and offers a new one", async () => {
    const phone = await phoneToken(IVANOV, own().baseUrl);
    const w = await waitingBrowser(own().baseUrl);
    await expect.poll(async () => (await qrCall(phone.token, w.code, "", { origin: own().baseUrl })).status, { timeout: 15_000, interval: 500 }).toBe(410);
    const late = await qrCall(phone.token, w.code, "/confirm", { origin: own().baseUrl });
    expect(late.status).toBe(410);
    expect(late.body).toEqual({ type: "process_error", error: "qr_code_expired", desc: "QR code expired", params: {} });

    const page = await reload(w);
    expect(alertOf(page.text)).toBe("The QR code has expired.");
    const fresh = await postForm(w.browser, formTo(page, "/login/qr"));
    expect(CODE.exec(fresh.text)?.[1]).not.toBe(w.code);
  });
});
