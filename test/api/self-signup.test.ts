import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { readUser, unique, uniquePhone } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { IMPORT_FIXTURE } from "../support/fixtures.ts";
import { api, base, systemToken } from "../support/http.ts";
import { codeAfter, codeOf, delivered, waitForMessage } from "../support/inbox.ts";
import { authorizeUrl, callbackParams, IVANOV, SPA, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";

const PASSWORD = "a long sign-up passphrase";
const other = (code: string) => (code === "000000" ? "111111" : "000000");
const unescape = (s: string) => s.replace(/&amp;/g, "&");

/** A browser of one person: its own address, so that per-address counters of tests never meet. */
const person = (lang = "en") => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": lang });

/** The "Create an account" link of a sign-in page. */
function registerLinkOf(page: TPage): string | undefined {
  const m = /<a href="([^"]*\/register\?[^"]*)">/.exec(page.text);
  return m ? unescape(m[1]!) : undefined;
}

/** The field-level error shown under an input. */
function fieldErrorOf(page: TPage, field: string): string | undefined {
  return new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(page.text)?.[1];
}

/** The status message of a page (role="status"). */
const statusOf = (page: TPage) => /role="status">([^<]*)</.exec(page.text)?.[1];

const audit = async (sub: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as {
    type: string;
    clientId: string | null;
    ip: string | null;
    params: Record<string, unknown>;
  }[];

/** The claims of a JWT (its signature is checked by the token tests; here only who it names matters). */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as { sub: string };

function newPerson() {
  const email = `${unique("su-")}@example.ru`;
  return { email, phone: uniquePhone(), fields: { family_name: "Самойлов", given_name: "Сергей", email, password: PASSWORD, password_repeat: PASSWORD } };
}

describe("self sign-up page (IDP_SELF_SIGNUP=on)", () => {
  it("signs up from the sign-in page, confirms e-mail and phone by code, signs in and continues the authorization", async () => {
    const browser = person();
    const { url, verifier } = webAuthorization();
    const login = await browser.open(url);
    const link = registerLinkOf(login);
    expect(link).toMatch(/\/register\?flow=[\w-]+&lang=en$/);
    const form = await browser.open(link!);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<html lang="en">');
    // Its one script is the passkey script, from the service itself, which shows "with a passkey instead" where WebAuthn exists.
    expect([...form.text.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([`<script src="${base()}/login/passkey/script" defer>`]);
    expect(form.text).toContain('name="method" value="passkey" class="secondary" data-webauthn-only hidden>Create account with a passkey instead (no password)</button>');
    for (const id of ["family_name", "given_name", "email", "phone_number", "password", "password_repeat"]) {
      expect(form.text).toMatch(new RegExp(`<label for="${id}">[^\\n]+</label>\\s*<input [^>]*id="${id}"`));
    }
    expect(form.text).toContain('autocomplete="new-password"');
    expect(form.text).toContain("to continue to");

    const { email, phone, fields } = newPerson();
    const { result: codes, code: smsCode } = await codeAfter(phone, () => browser.submit(form, { ...fields, phone_number: phone }));
    expect(codes.status).toBe(200);
    expect(codes.url).toMatch(/\/register\/code\?signup=[\w-]+&lang=en$/);
    expect(codes.text).toContain(`Code from the e-mail to ${email}`);
    expect(codes.text).toContain(`Code from the SMS to +${phone}`);
    expect(browser.cookies.has("idp_session")).toBe(false);
    const emailCode = codeOf(await waitForMessage(email));

    const wrong = await browser.submit(codes, { contact: "email", action: "confirm", code: other(emailCode) });
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe("Wrong code. Attempts left: 2.");
    const mail = await browser.submit(wrong, { contact: "email", action: "confirm", code: emailCode });
    expect(mail.status).toBe(200);
    expect(statusOf(mail)).toBe(`The address ${email} is confirmed.`);
    expect(mail.text).not.toContain("code-email");

    // The last code creates the account, signs the browser in and goes on to the application's consent.
    const consent = await browser.submit(mail, { contact: "phone", action: "confirm", code: ` ${smsCode.slice(0, 3)} ${smsCode.slice(3)} ` });
    expect(consent.status).toBe(200);
    expect(consent.url).toContain("/consent?flow=");
    expect(consent.text).toContain("Signed in as Сергей Самойлов.");
    expect(browser.cookies.has("idp_session")).toBe(true);
    const back = await browser.submit(consent, { decision: "allow" });
    const code = callbackParams(back).get("code")!;
    const tokens = await tokenAs("web", { grant_type: "authorization_code", code, redirect_uri: WEB.redirectUri, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const { sub } = claimsOf(tokens.body.id_token);

    expect((await readUser(sub)).body).toMatchObject({
      family_name: "Самойлов",
      given_name: "Сергей",
      email: { value: email, vrf: true },
      phone_number: { value: phone, vrf: true },
      locked: false,
    });
    const events = await audit(sub);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["user.registered", "registration.contact_confirmed", "user.signed_in", "user.consent_granted"]));
    const signedIn = events.find((e) => e.type === "user.signed_in")!;
    expect(signedIn).toMatchObject({ clientId: WEB.id, ip: browser.headers["x-forwarded-for"], params: { method: "registration" } });
    // The password chosen at sign-up is the account's: the e-mail and it sign in elsewhere.
    await webTokens(person(), {}, { identifier: email, password: PASSWORD });
  });

  it("signs up on its own, without an application, in Russian by default, and the session then serves applications", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const form = await browser.open(`${base()}/register`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<html lang="ru">');
    expect(form.text).toContain("<h1>Регистрация</h1>");
    expect(form.headers.getSetCookie().join()).toMatch(/idp_csrf=[^;]+; Path=\/idp; HttpOnly; SameSite=Lax/);
    const { email, fields } = newPerson();
    const { result: codes, code } = await codeAfter(email, () => browser.submit(form, fields));
    expect(codes.text).toContain(`Код из письма на ${email}`);
    expect(codes.text).not.toContain("code-phone");
    const done = await browser.submit(codes, { contact: "email", action: "confirm", code });
    expect(done.status).toBe(200);
    expect(done.text).toContain("<h1>Учётная запись создана</h1>");
    expect(browser.cookies.has("idp_session")).toBe(true);

    // The new session stands in for a sign-in: a first-party application gets a code at once.
    const spa = await browser.open(authorizeUrl({ response_type: "code", client_id: SPA.id, redirect_uri: SPA.redirectUri, scope: "openid", code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256" }));
    expect(callbackParams(spa).get("code")).toBeTruthy();
    // The finished sign-up cannot be submitted again.
    expect((await browser.submit(codes, { contact: "email", action: "confirm", code })).status).toBe(404);
  });

  it("shows the form again with messages for bad input, and creates or sends nothing", async () => {
    const browser = person();
    const form = await browser.open(`${base()}/register?lang=en`);
    const { email, fields } = newPerson();

    const empty = await browser.submit(form, { ...fields, email: "", password_repeat: "something else" });
    expect(empty.status).toBe(400);
    expect(alertOf(empty.text)).toBe("Please correct the following:");
    expect(fieldErrorOf(empty, "email")).toBe("Enter an e-mail address or a mobile phone.");
    expect(fieldErrorOf(empty, "password_repeat")).toBe("The passwords do not match.");
    expect(empty.text).toMatch(/id="given_name" name="given_name" value="Сергей"/);
    expect(empty.text).not.toContain(PASSWORD);

    const short = await browser.submit(empty, { ...fields, password: "short", password_repeat: "short" });
    expect(short.status).toBe(400);
    expect(fieldErrorOf(short, "password")).toBe("The password must be at least 15 characters long");
    const invalid = await browser.submit(short, { ...fields, email: "not-an-address", phone_number: "12345" });
    expect(invalid.status).toBe(400);
    expect(fieldErrorOf(invalid, "email")).toBe("Must be an e-mail address");
    expect(fieldErrorOf(invalid, "phone_number")).toBe("Must be a phone number 7XXXXXXXXXX");
    expect(invalid.text).toContain('<a href="#email">E-mail: must be an e-mail address</a>');
    expect(invalid.text).toMatch(/id="email" [^>]*aria-describedby="email-error" aria-invalid="true"/);

    expect(await delivered(email)).toEqual([]);
    // Nothing was taken: the same address signs up afterwards.
    const { result } = await codeAfter(email, () => browser.submit(invalid, fields));
    expect(result.url).toContain("/register/code?signup=");
  });

  it("says plainly that an e-mail is taken, offers to sign in, and sends nothing to it", async () => {
    const browser = person();
    const login = await browser.open(webAuthorization().url);
    const form = await browser.open(registerLinkOf(login)!);
    const before = (await delivered(IVANOV.email)).length;
    const taken = await browser.submit(form, { ...newPerson().fields, email: IVANOV.email });
    expect(taken.status).toBe(409);
    expect(fieldErrorOf(taken, "email")).toBe("An account with this e-mail address already exists. Sign in with it, or use another address.");
    expect(taken.text).toMatch(/Already have an account\? <a href="[^"]*\/login\?flow=[\w-]+&amp;lang=en">Sign in<\/a>/);
    expect((await delivered(IVANOV.email)).length).toBe(before);
  });

  it("requires the CSRF token of this browser, and keeps a sign-up to the browser that started it", async () => {
    const browser = person();
    const form = await browser.open(`${base()}/register?lang=en`);
    const { action, hidden } = formOf(form.text);
    const post = (b: Browser, url: string, body: Record<string, string>) =>
      b.fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });
    const { email, fields } = newPerson();
    const missing = await post(browser, action, fields);
    expect(missing.status).toBe(403);
    expect(alertOf(missing.text)).toContain("The form does not belong to this browser");
    const stranger = person();
    await stranger.open(`${base()}/register?lang=en`);
    expect((await post(stranger, action, { ...fields, ...hidden })).status).toBe(403);
    expect(await delivered(email)).toEqual([]);

    const { result: codes, code } = await codeAfter(email, () => browser.submit(form, fields));
    expect((await stranger.open(codes.url)).status).toBe(403);
    expect((await post(stranger, codes.url, { ...formOf(codes.text).hidden, code })).status).toBe(403);
    expect((await post(browser, codes.url, { contact: "email", action: "confirm", code })).status).toBe(403);
    expect(stranger.cookies.has("idp_session")).toBe(false);
    // The owner's sign-up is untouched by all that.
    expect((await browser.submit(codes, { contact: "email", action: "confirm", code })).text).toContain("Your account is ready");
  });

  it("runs out of attempts in words, refuses a resend within the cooldown, and a new code works", async () => {
    const browser = person();
    const form = await browser.open(`${base()}/register?lang=en`);
    const { email, fields } = newPerson();
    const { result: codes, code: first } = await codeAfter(email, () => browser.submit(form, fields));
    let page = codes;
    for (const left of ["2", "1"]) {
      page = await browser.submit(page, { contact: "email", action: "confirm", code: other(first) });
      expect(alertOf(page.text)).toBe(`Wrong code. Attempts left: ${left}.`);
    }
    page = await browser.submit(page, { contact: "email", action: "confirm", code: other(first) });
    expect(page.status).toBe(400);
    expect(alertOf(page.text)).toBe("Wrong code, and no attempts are left. Ask for a new code.");
    expect(page.text).not.toContain('id="code-email"');
    expect(page.text).toMatch(/<button type="submit" name="action" value="resend" class="primary"/);
    const tooSoon = await browser.submit(page, { contact: "email", action: "resend" });
    expect(tooSoon.status).toBe(429);
    expect(alertOf(tooSoon.text)).toMatch(/^A new code can be requested in \d s\.$/);
    expect(Number(tooSoon.headers.get("retry-after"))).toBeGreaterThan(0);

    await new Promise((r) => setTimeout(r, Number(tooSoon.headers.get("retry-after")) * 1000));
    const sent = (await delivered(email)).length;
    const resent = await browser.submit(tooSoon, { contact: "email", action: "resend" });
    expect(resent.status).toBe(200);
    expect(statusOf(resent)).toBe(`A new code has been sent to ${email}.`);
    const second = codeOf(await waitForMessage(email, sent));
    expect((await browser.submit(resent, { contact: "email", action: "confirm", code: first })).status).toBe(400);
    expect((await browser.submit(resent, { contact: "email", action: "confirm", code: second })).text).toContain("Your account is ready");
  });

  it("refuses more sign-ups from one address than the limit, with Retry-After", async () => {
    const browser = person();
    const form = await browser.open(`${base()}/register?lang=en`);
    const statuses: number[] = [];
    // Each one meets a taken e-mail: cheap for the server, and exactly what the limit is about.
    for (let i = 0; i < 11; i++) statuses.push((await browser.submit(form, { ...newPerson().fields, email: IVANOV.email })).status);
    expect(statuses).toEqual([...Array(10).fill(409), 429]);
    const refused = await browser.submit(form, newPerson().fields);
    expect(refused.status).toBe(429);
    expect(alertOf(refused.text)).toMatch(/^Too many sign-ups from your network\. Try again in \d+ (s|min)\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Mistakes in the form do not count: another address may fix its typos as often as it needs.
    const typos = person();
    const own = await typos.open(`${base()}/register?lang=en`);
    for (let i = 0; i < 12; i++) expect((await typos.submit(own, { ...newPerson().fields, password_repeat: "x" })).status).toBe(400);
    for (let i = 0; i < 12; i++) expect((await typos.submit(own, { ...newPerson().fields, password: "short", password_repeat: "short" })).status).toBe(400);
  });
});

describe("self sign-up page (IDP_SELF_SIGNUP=off)", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let db: Awaited<ReturnType<typeof createPgDatabase>> | undefined;

  beforeAll(async () => {
    // A second server with sign-up off, on a database of its own (it must not claim the suite's outbox).
    if (inject("dbKind") === "postgres") db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    server = await startServer({
      env: {
        IDP_SELF_SIGNUP: "off",
        IDP_IMPORT: IMPORT_FIXTURE,
        IDP_ADMIN_PASSWORD: inject("adminPassword"),
        IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-nosignup-")),
        ...(db ? { DATABASE_URL: db.url, IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef" } : {}),
      },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("answers 404 pages that say sign-up is off and how it is turned on, and shows no link on the sign-in page", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" }, server.baseUrl);
    for (const url of [`${server.baseUrl}/register`, `${server.baseUrl}/register/code?signup=${"a".repeat(24)}`]) {
      const page = await browser.fetch(url);
      expect(page.status, url).toBe(404);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(alertOf(page.text)).toBe("Creating an account yourself is turned off on this service. Ask its administrator for an account; they can also turn sign-up on (IDP_SELF_SIGNUP=on).");
    }
    const post = await browser.fetch(`${server.baseUrl}/register`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40b.ru" });
    expect(post.status).toBe(404);
    const login = await browser.open(webAuthorization({}, server.baseUrl).url);
    expect(login.status).toBe(200);
    expect(login.text).toContain('id="identifier"');
    expect(registerLinkOf(login)).toBeUndefined();
  });
});
