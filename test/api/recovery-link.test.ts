import { describe, expect, inject, it } from "vitest";
import { changeUser, createUserWithPassword, unique, uniquePhone } from "../support/accounts.ts";
import { alertOf, Browser, uniqueIp } from "../support/browser.ts";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { api, base, systemToken } from "../support/http.ts";
import { delivered } from "../support/inbox.ts";
import { tokenAs, webTokens } from "../support/oidc.ts";

// The administrator's "Send a recovery message" (server/recovery/recovery-invites.service.ts): a link
// to the person's confirmed address, read from the real SMTP server and SMS webhook, that sets a new
// password once. Opening it spends nothing; a refused password gives it back; parallel submissions
// set one password; the person's sessions and tokens end.

const OLD = "the passphrase before the link";
const NEW = "a passphrase chosen from the link";
const eventsOf = async (sub: string, type: string) =>
  (await api("GET", `/api/v3/users/${sub}/audit?type=${type}`, { token: await systemToken("users-app", "idp_api_sys_uaud") })).body.events as { params: Record<string, unknown> }[];

async function person(confirmed = true) {
  const a = await createUserWithPassword(OLD);
  const email = `${unique("link-")}@example.test`;
  const phone = uniquePhone();
  expect((await changeUser(a.instanceId, { email: { value: email, vrf: confirmed }, phone_number: { value: phone, vrf: confirmed } })).status).toBe(200);
  return { ...a, email, phone };
}

let cookie: string;
const send = async (sub: string, channel: "email" | "phone", locale: "en" | "ru" = "en") => {
  cookie ??= await consoleSignIn(base(), "admin", inject("adminPassword"));
  return trpcCall(base(), cookie, "console.users.sendRecovery", { sub, channel, locale }, "mutation");
};

/** The link of the newest recovery message to `to`, as it arrived. */
async function linkTo(to: string, count = 1): Promise<string> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const links = (await delivered(to)).map((m) => /(https?:\/\/\S+\/login\/recover\/link\?\S+)/.exec(m.text)?.[1]).filter(Boolean) as string[];
    if (links.length >= count) return links[count - 1]!.replace(/[.)]$/, "");
  }
  throw new Error(`no recovery link to ${to}`);
}

const browser = () => new Browser({ "x-forwarded-for": uniqueIp(), "accept-language": "en" });
const submit = (link: string, password: string, repeat = password) =>
  browser().fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password, repeat }).toString() });
const signsIn = async (identifier: string, password: string) => {
  const b = browser();
  return webTokens(b, {}, { identifier, password }).then(() => true, () => false);
};

describe("the administrator's recovery message", () => {
  it("sends a link that sets a new password once, under the policy, and ends the person's sessions", async () => {
    const a = await person();
    const before = (await webTokens(browser(), {}, { identifier: a.sub, password: OLD })).tokens;

    const sent = await send(a.sub, "email");
    expect(sent.status).toBe(200);
    expect(sent.body.result!.data).toEqual({ to: `${a.email[0]}***@example.test` });
    const link = await linkTo(a.email);
    expect(new URL(link).searchParams.get("t")).toMatch(/^[\w-]{43}$/);
    const message = (await delivered(a.email)).at(-1)!;
    expect(message.subject).toBe("Set a new password for your account");
    expect(message.text).toContain("24 hours");

    // Opening it (as a mail scanner would, twice) spends nothing.
    for (let i = 0; i < 2; i++) {
      const page = await browser().fetch(link);
      expect(page.status).toBe(200);
      expect(page.text).toContain("Set a new password");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    }
    const mismatch = await submit(link, NEW, `${NEW}!`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("The two passwords differ.");
    const short = await submit(link, "short");
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/at least 15 characters/);
    expect(await signsIn(a.sub, OLD)).toBe(true);

    const done = await submit(link, NEW);
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your new password is saved.");
    expect(await signsIn(a.sub, OLD)).toBe(false);
    expect(await signsIn(a.sub, NEW)).toBe(true);
    // The tokens from before the change no longer refresh.
    expect((await tokenAs("web", { grant_type: "refresh_token", refresh_token: before.refresh_token })).status).toBe(400);

    // Used: the page says so, and a second password is not set.
    expect((await browser().fetch(link)).status).toBe(410);
    const again = await submit(link, "yet another long passphrase");
    expect(again.status).toBe(410);
    expect(alertOf(again.text)).toContain("expired or was used already");
    expect(await signsIn(a.sub, NEW)).toBe(true);

    expect((await eventsOf(a.sub, "user.recovery_invited"))[0]!.params).toMatchObject({ channel: "email", by: "console" });
    expect(await eventsOf(a.sub, "user.recovery_invite_used")).toHaveLength(1);
    expect(JSON.stringify(await eventsOf(a.sub, "user.recovery_invited"))).not.toContain(new URL(link).searchParams.get("t"));
  });

  it("goes by SMS in the chosen language, and of 8 parallel submissions one sets the password", async () => {
    const a = await person();
    expect((await send(a.sub, "phone", "ru")).status).toBe(200);
    const link = await linkTo(a.phone);
    expect((await delivered(a.phone)).at(-1)!.text).toMatch(/^Новый пароль можно задать по ссылке/);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(link, `${NEW} number ${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(7);
    const winner = statuses.indexOf(200);
    expect(await signsIn(a.sub, `${NEW} number ${winner}`)).toBe(true);
  });

  it("refuses an account without a confirmed address, an unknown account, and made-up links", async () => {
    const a = await person(false);
    const refused = await send(a.sub, "email");
    expect(refused.status).toBe(409);
    expect(refused.body.error!.data).toMatchObject({ appCode: "recovery.no_confirmed_contact" });
    expect((await trpcCall(base(), cookie, "console.users.recoveryChannels", { sub: a.sub })).body.result!.data).toEqual([]);
    expect((await send("nobody-by-this-name", "email")).status).toBe(404);
    expect(await delivered(a.email)).toEqual([]);

    for (const t of ["", "x".repeat(43), "a".repeat(5000)]) {
      expect((await browser().fetch(`${base()}/login/recover/link?t=${t}`)).status).toBe(410);
      expect((await submit(`${base()}/login/recover/link?t=${t}`, NEW)).status).toBe(410);
    }
  });
});
