import { describe, expect, it } from "vitest";
import { changeUser, createUserWithPassword, readUser, unique, uniquePhone } from "../support/accounts.ts";
import { Browser, uniqueIp } from "../support/browser.ts";
import { api, systemToken } from "../support/http.ts";
import { codeOf, delivered, waitForMessage, type TDelivered } from "../support/inbox.ts";
import { webTokens } from "../support/oidc.ts";

// A change of how someone gets into their account is told to them at their confirmed e-mail and
// phone (read here from the loopback SMTP server and the SMS webhook), whoever made it: what, when,
// from where, and what to do if it was not them.

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const ADVICE_EN = "If it was not, change your password in your account now";

async function personWithContacts() {
  const account = await createUserWithPassword("first correct horse");
  const email = `${unique("note")}@example.ru`;
  const phone = uniquePhone();
  const { instanceId } = (await readUser(account.sub)).body.meta;
  const set = await changeUser(instanceId, { email: { value: email, vrf: true }, phone_number: { value: phone, vrf: true } });
  expect(set.status, set.text).toBe(200);
  return { ...account, email, phone };
}

/** The next message to `to` after `before` of them, whose subject (or SMS text) says `what`. */
async function nextTo(to: string, before: number, what: RegExp): Promise<TDelivered> {
  const m = await waitForMessage(to, before);
  expect(m.subject ?? m.text).toMatch(what);
  return m;
}

const count = async (to: string) => (await delivered(to)).length;

describe("account notices", () => {
  it("a password change made with the person's token: e-mail and SMS say what, when, from where, and what to do", async () => {
    const p = await personWithContacts();
    const ip = uniqueIp();
    const { tokens } = await webTokens(new Browser({ "x-forwarded-for": ip }), { scope: "openid idp_api_usec_chg" }, { identifier: p.sub, password: p.password });
    const [mails, texts] = [await count(p.email), await count(p.phone)];
    const { instanceId } = (await readUser(p.sub)).body.meta;
    const changed = await api("POST", `/api/v3/users/${instanceId}/pswd`, {
      token: tokens.access_token,
      body: { current: p.password, password: "a brand new passphrase" },
      headers: { "accept-language": "en", "x-forwarded-for": "198.51.100.23", "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" },
    });
    expect(changed.status).toBe(204);
    const mail = await nextTo(p.email, mails, /^Your password was changed$/);
    expect(mail.text).toMatch(/When: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(mail.text).toContain("From: 198.51.100.23, Firefox, Linux");
    expect(mail.text).toContain(ADVICE_EN);
    expect(mail.text).not.toContain("a brand new passphrase");
    const sms = await nextTo(p.phone, texts, /^Your password was changed \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)\. If this was not you, change your password\.$/);
    expect(sms.text).not.toContain("passphrase");
  });

  it("an administrator's reset, the second factor turned off, a generator added and an external account linked are told too (in Russian by default)", async () => {
    const p = await personWithContacts();
    let mails = await count(p.email);
    const { instanceId } = (await readUser(p.sub)).body.meta;
    const reset = await api("POST", `/api/v3/users/${instanceId}/pswd`, { token: await systemToken("users-app", "idp_api_sys_usec_chg"), body: { password: "an administrator's choice 1" } });
    expect(reset.status).toBe(204);
    await nextTo(p.email, mails++, /^Пароль вашей учётной записи сброшен$/);

    const bound = await api("POST", "/api/v3/users/totps/attach", {
      token: await systemToken("otp-app", "idp_api_otp_full_access"),
      body: { subjectId: p.sub, base32Secret: SECRET, len: 6, algo: "SHA1", period: 30, name: "Рабочий телефон" },
    });
    expect(bound.status).toBe(204);
    const added = await nextTo(p.email, mails++, /^К учётной записи привязан генератор кодов$/);
    expect(added.text).toContain("Что именно: Рабочий телефон");
    expect(added.text).toContain("Если нет, сразу смените пароль");

    const modes = async (body: unknown) => api("POST", `/api/v3/users/${p.sub}/auth`, { token: await systemToken("otp-app", "idp_api_sys_usec_chg"), body });
    expect((await modes({ requiredFactor: 2 })).status).toBe(200);
    expect((await modes({ requiredFactor: null })).status).toBe(200);
    await nextTo(p.email, mails++, /^Вход с кодом подтверждения выключен$/);

    const linked = await api("POST", `/api/v3/users/${p.sub}/fa/oidc/corp/${unique("sid-")}`, { token: await systemToken("users-app", "idp_api_sys_ufa_chg") });
    expect(linked.status).toBe(204);
    const fa = await nextTo(p.email, mails, /^К учётной записи привязан внешний аккаунт$/);
    expect(fa.text).toContain("Что именно: oidc:corp");
  });

  it("a sign-in from a device the account has not used before, but not the first one nor a known one", async () => {
    const p = await personWithContacts();
    const first = new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
    const mails = await count(p.email);
    await webTokens(first, { scope: "openid" }, { identifier: p.sub, password: p.password });
    await webTokens(first, { scope: "openid", prompt: "login" }, { identifier: p.sub, password: p.password });
    const ip = uniqueIp();
    await webTokens(new Browser({ "x-forwarded-for": ip, "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1" }), { scope: "openid" }, { identifier: p.sub, password: p.password });
    const told = await nextTo(p.email, mails, /^(Вход с нового устройства|Sign-in from a new device)$/);
    expect(told.text).toContain(ip);
    // Only that one: the first device and its second sign-in said nothing.
    await new Promise((r) => setTimeout(r, 500));
    expect(await count(p.email)).toBe(mails + 1);
  });

  it("a new e-mail address: the new one and the old one are both told once it is confirmed", async () => {
    const p = await personWithContacts();
    const fresh = `${unique("new")}@example.ru`;
    const { instanceId } = (await readUser(p.sub)).body.meta;
    const [oldMails, newMails] = [await count(p.email), await count(fresh)];
    const started = await changeUser(instanceId, { email: { value: fresh, vrf: false } }, { "accept-language": "en" });
    expect(started.status, started.text).toBe(200);
    const code = codeOf(await waitForMessage(fresh, newMails));
    const note = started.body.notes.actions.find((a: { value?: string }) => a.value === fresh);
    const confirmed = await api("POST", `/api/v3/users/notes/validate_email/${note.state}`, {
      token: await systemToken("users-app", "idp_api_sys_users_chg"),
      body: { cmd: "code", value: code },
      headers: { "accept-language": "en" },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const toOld = await nextTo(p.email, oldMails, /^Your e-mail address or phone number was changed$/);
    expect(toOld.text).toMatch(/What: n\*\*\*@example\.ru/);
    await nextTo(fresh, newMails + 1, /^Your e-mail address or phone number was changed$/);
  });
});
