import { decodeJwt } from "jose";
import { describe, expect, inject, it } from "vitest";
import { changeUser, createUserWithPassword, unique } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { api, base, systemToken } from "../support/http.ts";
import { delivered } from "../support/inbox.ts";
import { callbackParams, tokenAs, WEB, webAuthorization, webTokens } from "../support/oidc.ts";
import { SoftAuthenticator } from "../support/soft-authenticator.mjs";

// The administrator's link that enrols a passkey (server/recovery/passkey-invites.service.ts): sent
// from the console, read from the real SMTP server, opened by a software authenticator that answers
// the options bound to the link. The passkey then signs the person in; the link works once, only
// for what it was sent for, and an answer it refused gives it back.

const PASSWORD = "the passphrase this person keeps";
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

async function person() {
  const a = await createUserWithPassword(PASSWORD);
  const email = `${unique("pk-link-")}@example.test`;
  expect((await changeUser(a.instanceId, { email: { value: email, vrf: true }, given_name: "Ada", family_name: "Keys" })).status).toBe(200);
  return { ...a, email };
}

let cookie: string;
const send = async (sub: string, purpose: "password" | "passkey", locale: "en" | "ru" = "en") => {
  cookie ??= await consoleSignIn(base(), "admin", inject("adminPassword"));
  return trpcCall(base(), cookie, "console.users.sendRecovery", { sub, channel: "email", locale, purpose }, "mutation");
};

/** The link of the `count`-th message to `to` with `subject`, once it has arrived. */
async function linkTo(to: string, subject: string, count = 1): Promise<string> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const message = (await delivered(to)).filter((m) => m.subject === subject)[count - 1];
    const link = message && /(https?:\/\/\S+\/login\/recover\/link\?\S+)/.exec(message.text)?.[1];
    if (link) return link.replace(/[.)]$/, "");
  }
  throw new Error(`no link to ${to}`);
}

const browser = () => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
const postForm = (b: Browser, target: string, fields: Record<string, string>) =>
  b.fetch(target, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const unescape = (s: string) => s.replace(/&amp;/g, "&");

/** The passkey form of a page: where it posts and where it asks for options. */
function passkeyFormOf(page: TPage) {
  const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)" data-ceremony="(\w+)"/.exec(page.text);
  return m ? { action: unescape(m[1]!), options: unescape(m[2]!), ceremony: m[3] } : undefined;
}

const authenticator = () => new SoftAuthenticator(new URL(base()).origin, new URL(base()).hostname);

/** The options the link's page asks for, and the answer of `key` to them, posted as the page's script does. */
async function enrol(link: string, key: SoftAuthenticator, bend?: Parameters<SoftAuthenticator["register"]>[1]) {
  const b = browser();
  const form = passkeyFormOf(await b.fetch(link))!;
  const options = JSON.parse((await postForm(b, form.options, {})).text);
  return postForm(b, form.action, { answer: JSON.stringify(key.register(options, bend)) });
}

/** A sign-in with the passkey alone from the sign-in page, through to the ID token. */
async function signInWithPasskey(key: SoftAuthenticator): Promise<string | undefined> {
  const b = new Browser({ "x-forwarded-for": uniqueIp() });
  const { url, verifier } = webAuthorization();
  const login = await b.open(url);
  const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)"/.exec(login.text)!;
  const csrf = formOf(login.text).hidden.csrf_token!;
  const options = JSON.parse((await postForm(b, unescape(m[2]!), { csrf_token: csrf })).text);
  const signedIn = await postForm(b, unescape(m[1]!), { csrf_token: csrf, answer: JSON.stringify(key.authenticate(options)) });
  if (signedIn.status !== 303) return undefined;
  let page = await b.open(signedIn.location!);
  if (page.url.includes("/consent?")) page = await b.submit(page, { decision: "allow" });
  const tokens = await tokenAs("web", { grant_type: "authorization_code", code: callbackParams(page).get("code")!, redirect_uri: WEB.redirectUri, code_verifier: verifier });
  return decodeJwt(tokens.body.id_token).sub;
}

describe("the administrator's passkey link", () => {
  it("enrols a passkey once, which then signs the person in; a refused answer gives the link back", async () => {
    const a = await person();
    const sent = await send(a.sub, "passkey");
    expect(sent.status).toBe(200);
    const link = await linkTo(a.email, "Create a passkey for your account");

    // Opening it (twice, as a mail scanner might) spends nothing; the page runs the passkey script only.
    for (let i = 0; i < 2; i++) {
      const page = await browser().fetch(link);
      expect(page.status).toBe(200);
      expect(page.text).toContain("<h1>Create a passkey</h1>");
      // It names the account by its masked address, so a forwarded link is not taken for one's own.
      expect(page.text).toContain(`This link is for the account at ${a.email[0]}***@example.test.`);
      expect(passkeyFormOf(page)).toMatchObject({ ceremony: "create" });
      expect(page.headers.get("content-security-policy")).toContain(`script-src ${base()}/login/passkey/script;`);
    }
    // It is not a password link: a password posted to it changes nothing.
    const asPassword = await postForm(browser(), link, { password: "a passphrase from the wrong link", repeat: "a passphrase from the wrong link" });
    expect(asPassword.status).toBe(410);

    // The options name the account as its authenticator will list it, and ask for a discoverable key with user verification.
    const b = browser();
    const form = passkeyFormOf(await b.fetch(link))!;
    const options = JSON.parse((await postForm(b, form.options, {})).text);
    expect(options).toMatchObject({ rp: { id: new URL(base()).hostname }, user: { name: a.email, displayName: "Ada Keys" }, authenticatorSelection: { residentKey: "required", userVerification: "required" } });

    // An answer from another origin, or without user verification, is refused in words; the link still works.
    const key = authenticator();
    for (const bend of [{ origin: "https://evil.example" }, { uv: false }]) {
      const refused = await enrol(link, key, bend);
      expect(refused.status).toBe(400);
      expect(alertOf(refused.text)).toBe("The passkey could not be created. Try again, or use another device or security key.");
    }
    expect((await browser().fetch(link)).status).toBe(200);
    expect(await signInWithPasskey(key)).toBeUndefined();

    const done = await enrol(link, key);
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your passkey is created.");
    expect(await signInWithPasskey(key)).toBe(a.sub);

    // Used: the page says so, and another device's answer registers nothing.
    expect((await browser().fetch(link)).status).toBe(410);
    const other = authenticator();
    expect((await postForm(browser(), form.action, { answer: JSON.stringify(other.register(options)) })).status).toBe(410);
    expect((await postForm(browser(), form.options, {})).status).toBe(410);
    const listed = await api("GET", `/api/v3/users/${a.sub}/passkeys`, { token: await systemToken("otp-app", "idp_api_sys_usec") });
    expect(listed.body.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([[key.id, "Passkey"]]);

    // The password still signs in (the link added a way in, it took none away); the person was told, the events say what happened.
    expect((await webTokens(browser(), {}, { identifier: a.sub, password: PASSWORD })).tokens.access_token).toBeTruthy();
    // The notice goes in the account's language (Russian unless it says otherwise), not the link's.
    await expect.poll(async () => (await delivered(a.email)).map((m) => m.subject)).toEqual(["Create a passkey for your account", "К учётной записи добавлен ключ входа"]);
    expect((await eventsOf(a.sub, "user.recovery_invited"))[0]!.params).toMatchObject({ channel: "email", purpose: "passkey" });
    expect(await eventsOf(a.sub, "user.passkey_invite_used")).toHaveLength(1);
    expect(await eventsOf(a.sub, "passkey.registered")).toHaveLength(1);

    // Once the second factor is on (the new passkey counts as a method of it), a passkey link is
    // refused, and one sent before stops working: it would sign in as two factors on the strength
    // of the message alone. A password link still goes.
    expect((await send(a.sub, "passkey")).status).toBe(200);
    const earlier = await linkTo(a.email, "Create a passkey for your account", 2);
    expect((await api("POST", `/api/v3/users/${a.sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body: { requiredFactor: 2 } })).status).toBe(200);
    const refusedLink = await send(a.sub, "passkey");
    expect(refusedLink.status).toBe(409);
    expect(refusedLink.body.error!.data).toMatchObject({ appCode: "recovery.passkey_link_second_factor" });
    const earlierForm = passkeyFormOf(await browser().fetch(earlier))!;
    expect((await postForm(browser(), earlierForm.options, {})).status).toBe(410);
    expect((await send(a.sub, "password")).status).toBe(200);
  });

  it("of 8 parallel answers registers one, in Russian", async () => {
    const a = await person();
    expect((await send(a.sub, "passkey", "ru")).status).toBe(200);
    const link = await linkTo(a.email, "Создайте ключ входа");
    const keys = Array.from({ length: 8 }, authenticator);
    // One set of options (a link has one challenge at a time: asking again replaces it), answered by 8 devices.
    const b = browser();
    const form = passkeyFormOf(await b.fetch(link))!;
    const options = JSON.parse((await postForm(b, form.options, {})).text);
    const answers = keys.map((k) => JSON.stringify(k.register(options)));
    const statuses = (await Promise.all(answers.map((answer) => postForm(browser(), form.action, { answer })))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(7);
    const listed = await api("GET", `/api/v3/users/${a.sub}/passkeys`, { token: await systemToken("otp-app", "idp_api_sys_usec") });
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual([keys[statuses.indexOf(200)]!.id]);
  });

  it("a password link gives no passkey options, and a passkey link no password", async () => {
    const a = await person();
    expect((await send(a.sub, "password")).status).toBe(200);
    const link = await linkTo(a.email, "Set a new password for your account");
    const t = new URL(link).searchParams.get("t")!;
    const options = await postForm(browser(), `${base()}/login/recover/link/passkey/options?t=${t}`, {});
    expect(options.status).toBe(410);
    expect(options.text).not.toContain("challenge");
    expect((await postForm(browser(), `${base()}/login/recover/link/passkey?t=${t}`, { answer: "{}" })).status).toBe(410);
    // The password link still works for what it was sent for.
    expect((await browser().fetch(link)).text).toContain("Set a new password");
    for (const made of ["", "x".repeat(43), "a".repeat(5000)]) {
      expect((await postForm(browser(), `${base()}/login/recover/link/passkey/options?t=${made}`, {})).status).toBe(410);
    }
  });
});
