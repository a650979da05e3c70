import { describe, expect, it } from "vitest";
import { changeToken, createUserWithPassword, unique } from "../support/accounts.ts";
import { alertOf, Browser, formOf, uniqueIp, type TPage } from "../support/browser.ts";
import { api } from "../support/http.ts";
import { IVANOV, webAuthorization } from "../support/oidc.ts";

async function loginPage(browser: Browser, extra: Record<string, string> = {}): Promise<TPage> {
  const page = await browser.open(webAuthorization(extra).url);
  expect(page.status).toBe(200);
  return page;
}

function post(browser: Browser, page: TPage, identifier: string, password: string): Promise<TPage> {
  const { action, hidden } = formOf(page.text);
  return browser.fetch(action, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...hidden, identifier, password }).toString(),
  });
}

describe("sign-in page", () => {
  it("is a plain, labelled form in Russian by default, in English on request, and cannot be framed", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const ru = await loginPage(browser);
    expect(ru.text).toContain('<html lang="ru">');
    expect(ru.text).toContain('<form method="post"');
    // No inline script: the one script is the passkey button's, a file of the service's own.
    expect([...ru.text.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([expect.stringMatching(/^<script src="[^"]*\/login\/passkey\/script" defer>$/)]);
    expect(ru.headers.get("content-security-policy")).toMatch(/script-src [^;]*\/login\/passkey\/script;/);
    for (const id of ["identifier", "password"]) expect(ru.text).toMatch(new RegExp(`<label for="${id}">[^<]+</label>\\s*<input [^>]*id="${id}"`));
    // The login field offers the person's passkeys in its autofill as well (conditional mediation).
    expect(ru.text).toContain('autocomplete="username webauthn"');
    expect(ru.text).toContain('autocomplete="current-password"');
    expect(ru.text).toMatch(/<a href="[^"]*lang=en" hreflang="en" lang="en">English<\/a>/);
    expect(ru.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(ru.headers.get("x-frame-options")).toBe("DENY");
    expect(ru.headers.get("cache-control")).toBe("no-store");

    const en = await loginPage(new Browser({ "accept-language": "en-US,en;q=0.9" }));
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain("Sign in");
    const hinted = await loginPage(new Browser(), { ui_locales: "en ru", login_hint: "ivanov" });
    expect(hinted.text).toContain('<html lang="en">');
    expect(hinted.text).toMatch(/id="identifier" name="identifier" value="ivanov"/);
    const switched = await browser.open(/href="([^"]*lang=en)"/.exec(ru.text)![1]!.replace(/&amp;/g, "&"));
    expect(switched.text).toContain('<html lang="en">');
  });

  it("signs in by phone number and by e-mail as well as by sub", async () => {
    for (const identifier of [IVANOV.phone, `+7 (999) 000-00-01`, IVANOV.email.toUpperCase()]) {
      const browser = new Browser({ "x-forwarded-for": uniqueIp() });
      const done = await post(browser, await loginPage(browser, { scope: "openid" }), identifier, IVANOV.password);
      expect(done.status).toBe(303);
      expect(done.headers.getSetCookie().join()).toMatch(/idp_session=[^;]+; Path=\/idp; HttpOnly; SameSite=Lax/);
    }
  });

  it("answers an unknown account exactly as a wrong password", async () => {
    const { sub } = await createUserWithPassword();
    const answers = [];
    for (const identifier of [sub, unique("nobody-")]) {
      const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
      const page = await post(browser, await loginPage(browser), identifier, "wrong password");
      answers.push({ status: page.status, alert: alertOf(page.text), body: page.text.replace(/value="[^"]*"/g, "").replace(/flow=[\w-]+/g, "") });
    }
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.alert).toBe("Wrong username or password.");
    expect(answers[1]).toEqual(answers[0]);
  });

  it("lets 50 parallel wrong passwords check no more than the limit, then locks out whatever the password", async () => {
    const account = await createUserWithPassword();
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const page = await loginPage(browser);
    const results = await Promise.all(Array.from({ length: 50 }, () => post(browser, page, account.sub, "wrong password")));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45);
    const locked = results.find((r) => r.status === 429)!;
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The right password during the lockout gets the same answer: the lockout tells nothing about it.
    const right = await post(browser, page, account.sub, account.password);
    expect(right.status).toBe(429);
    const waitless = (p: TPage) => alertOf(p.text)!.replace(/\d+/g, "N");
    expect(waitless(right)).toBe(waitless(locked));
    expect(waitless(right)).toBe("Слишком много попыток входа. Повторите через N с.");
  });

  it("never locks out an address whose parallel sign-ins all succeed (an office behind one NAT)", async () => {
    const accounts = await Promise.all(Array.from({ length: 30 }, () => createUserWithPassword()));
    const ip = uniqueIp();
    const browsers = accounts.map(() => new Browser({ "x-forwarded-for": ip }));
    const pages = await Promise.all(browsers.map((b) => loginPage(b)));
    // More sign-ins at once than the address may have failures (20): some are told to wait a second.
    const first = await Promise.all(accounts.map((a, i) => post(browsers[i]!, pages[i]!, a.sub, a.password)));
    const signedIn = first.filter((p) => p.status === 303).length;
    expect(signedIn).toBeGreaterThanOrEqual(20);
    expect(first.every((p) => p.status === 303 || (p.status === 429 && p.headers.get("retry-after") === "1"))).toBe(true);
    // None of them was a failure: once they are done, the address is free again.
    const again = await Promise.all(
      accounts.map(async (a, i) => (first[i]!.status === 303 ? 303 : (await post(browsers[i]!, pages[i]!, a.sub, a.password)).status)),
    );
    expect(again).toEqual(Array(30).fill(303));
  });

  it("locks a stranger's address out of an account, not the account's owner at another address", async () => {
    const account = await createUserWithPassword();
    const stranger = new Browser({ "x-forwarded-for": uniqueIp() });
    const page = await loginPage(stranger);
    for (let i = 0; i < 5; i++) expect((await post(stranger, page, account.sub, "wrong password")).status).toBe(400);
    expect((await post(stranger, page, account.sub, account.password)).status).toBe(429);

    const owner = new Browser({ "x-forwarded-for": uniqueIp() });
    expect((await post(owner, await loginPage(owner), account.sub, account.password)).status).toBe(303);
  });

  it("holds guessing spread over many addresses to the account's ceiling, except in a browser the account knows", async () => {
    const account = await createUserWithPassword();
    // The owner signed in from this browser before: it carries the account's device cookie.
    const known = new Browser({ "x-forwarded-for": uniqueIp() });
    expect((await post(known, await loginPage(known), account.sub, account.password)).status).toBe(303);

    // Fifty addresses, one wrong guess each: no single pair is locked, the account's ceiling is reached.
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const b = new Browser({ "x-forwarded-for": uniqueIp() });
        expect((await post(b, await loginPage(b), account.sub, "wrong password")).status).toBe(400);
      }),
    );
    const newcomer = new Browser({ "x-forwarded-for": uniqueIp() });
    expect((await post(newcomer, await loginPage(newcomer), account.sub, account.password)).status).toBe(429);
    // prompt=login: the browser still has its session; the form is asked for anyway.
    expect((await post(known, await loginPage(known, { prompt: "login" }), account.sub, account.password)).status).toBe(303);
  });

  it("counts an unknown phone however it is typed on one counter, as the lookup reads it", async () => {
    const digits = `7${String(Math.floor(Math.random() * 1e10)).padStart(10, "0")}`;
    const typed = `+${digits[0]} (${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7, 9)}-${digits.slice(9)}`;
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const page = await loginPage(browser);
    for (let i = 0; i < 5; i++) expect((await post(browser, page, typed, "wrong password")).status).toBe(400);
    expect((await post(browser, page, digits, "wrong password")).status).toBe(429);
  });

  it("limits failures per address across accounts", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp() });
    const page = await loginPage(browser);
    const results = await Promise.all(Array.from({ length: 24 }, () => post(browser, page, unique("nobody-"), "wrong password")));
    expect(results.filter((r) => r.status === 400)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(4);
  });

  it("tells a locked account so only after the right password", async () => {
    const account = await createUserWithPassword();
    const lock = await api("POST", `/api/v3/users/${account.instanceId}`, { token: await changeToken(), body: { locked: true } });
    expect(lock.status).toBe(200);
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
    const page = await loginPage(browser);
    const wrong = await post(browser, page, account.sub, "wrong password");
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe("Wrong username or password.");
    const right = await post(browser, page, account.sub, account.password);
    expect(right.status).toBe(403);
    expect(alertOf(right.text)).toBe("This account is locked. Contact your administrator.");
    expect(right.headers.getSetCookie().join()).not.toContain("idp_session");
  });

  it("refuses a form without the browser's CSRF cookie, and an empty form with a message", async () => {
    const browser = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
    const page = await loginPage(browser);
    const empty = await post(browser, page, "", "");
    expect(empty.status).toBe(400);
    expect(alertOf(empty.text)).toBe("Enter your username and password.");
    const stranger = new Browser({ "x-forwarded-for": uniqueIp() });
    const forged = await post(stranger, page, IVANOV.sub, IVANOV.password);
    expect(forged.status).toBe(403);
    expect(forged.headers.getSetCookie().join()).not.toContain("idp_session");
    const done = await post(browser, page, IVANOV.sub, IVANOV.password);
    expect(done.status).toBe(303);
    // The flow is finished: the same form cannot be submitted twice.
    expect((await post(browser, page, IVANOV.sub, IVANOV.password)).status).toBe(404);
    expect(done.location).toMatch(/\/consent\?flow=|^https:\/\/rp\.example\.test\/callback\?code=/);
  });
});
