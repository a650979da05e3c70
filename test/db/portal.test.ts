import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setSelection } from "../../server/attributes/selections.service.ts";
import { ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { grantConsent } from "../../server/consents/consents.service.ts";
import { getConfig } from "../../server/config/config.ts";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { listOutbox, readMessageText } from "../../server/messaging/outbox.service.ts";
import { isCutOff } from "../../server/oauth/tokens/token-cutoffs.ts";
import { startSession, type TStartedSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { updateUserAttributes } from "../../server/users/users-console.service.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The portal's procedures as the browser calls them: through portalProcedure, with a portal session
// naming an IdP session (sid) and the browser's device cookie, over the same services as the REST API.

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const admin = { subject: "test-admin" };

type TCaller = ReturnType<typeof appRouter.createCaller>;

/** A person signed in to the portal from a browser of their own (a session and a device cookie). */
async function signedIn(sub: string, userAgent = FIREFOX): Promise<{ caller: TCaller; session: TStartedSession }> {
  const session = await startSession({ userId: sub, amr: ["pwd"], ip: "203.0.113.7", userAgent });
  const portalSession = portalSessionOf(sub, session.session.id);
  const caller = appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent, deviceKey: session.deviceKey });
  return { caller, session };
}

async function failureOf(p: Promise<unknown>): Promise<{ code: TRPCError["code"]; appCode?: string; items?: unknown }> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(TRPCError);
  const cause = (e as TRPCError).cause;
  return { code: (e as TRPCError).code, ...(cause instanceof AppError ? { appCode: cause.code, items: cause.details.items } : {}) };
}

async function newestCode(to: string): Promise<string> {
  const message = (await listOutbox({ limit: 50 })).items.find((m) => m.recipient === to);
  if (!message) throw new Error(`no message to ${to}`);
  return /\b(\d{6})\b/.exec((await readMessageText(message.id, admin)).text)![1]!;
}

describe.each(DB_KINDS)("the portal's procedures on %s", (kind) => {
  let t: TTestDatabase;
  let n = 0;
  const tag = () => `${kind}-${++n}`;
  const newAccount = async (attrs: Record<string, unknown> = {}) =>
    inTransaction((tx) => createAccount({ attrs: { family_name: "Портал", ...attrs } }, { contactFlag: "vrf", allowed: null }, tx));
  const eventsOf = async (sub: string) =>
    t.db.prisma.securityEvent.findMany({ where: { subject: sub }, orderBy: { id: "asc" }, select: { type: true, clientId: true, ip: true, params: true } });

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument(
      {
        attributes: [
          { name: "nickname", type: "string", validators: { maxLength: 10 } },
          { name: "personnel_no", type: "string", unmodifiable: true },
          { name: "birthdate", type: "date" },
        ],
        clients: [{ id: "rp-shop", name: "Shop", secret: "rp-shop-secret", scopes: [], grantTypes: ["authorization_code", "refresh_token"], redirectUris: ["https://shop.test/cb"] }],
      },
      admin,
    );
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.useRealTimers());

  it("shows the catalog's attributes without sub and locked, contacts apart, and which can be changed", async () => {
    const account = await newAccount({ personnel_no: "000123", email: { value: `p-${tag()}@example.org`, vrf: true } });
    const { caller } = await signedIn(account.id);
    const profile = await caller.portal.profile.get();
    expect(profile.instanceId).toBe(account.instanceId);
    const names = profile.fields.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["family_name", "given_name", "nickname", "personnel_no", "birthdate"]));
    expect(names).not.toContain("sub");
    expect(names).not.toContain("locked");
    expect(names).not.toContain("email");
    expect(profile.fields.find((f) => f.name === "personnel_no")!.editable).toBe(false);
    expect(profile.fields.find((f) => f.name === "nickname")!.editable).toBe(true);
    expect(profile.attributes).toEqual({ family_name: "Портал", personnel_no: "000123" });
    expect(profile.contacts.map((c) => [c.attr, c.kind, c.verified, c.pending])).toEqual([
      ["phone_number", "phone", false, null],
      ["email", "email", true, null],
    ]);
  });

  it("saves the form through the users service: validators, unmodifiable and locked refused by field, a stale form refused whole", async () => {
    const account = await newAccount();
    const { caller } = await signedIn(account.id);
    const saved = await caller.portal.profile.update({ instanceId: account.instanceId, attributes: { given_name: "Ирина", family_name: null, birthdate: "1990-02-03" } });
    expect(saved.attributes).toEqual({ given_name: "Ирина", birthdate: "1990-02-03" });
    expect(saved.instanceId).not.toBe(account.instanceId);

    const refused = await failureOf(
      caller.portal.profile.update({ instanceId: saved.instanceId, attributes: { nickname: "x".repeat(11), birthdate: "1990-02-30", personnel_no: "1", locked: false, email: { value: "a@b.cd", vrf: true } } }),
    );
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.appCode).toBe("request.invalid_values");
    expect((refused.items as { pos: string }[]).map((i) => i.pos).sort()).toEqual(["birthdate", "email", "locked", "nickname", "personnel_no"]);

    const stale = await failureOf(caller.portal.profile.update({ instanceId: account.instanceId, attributes: { given_name: "Старое" } }));
    expect(stale).toMatchObject({ code: "CONFLICT", appCode: "user.stale_instance" });
    expect((await caller.portal.profile.get()).attributes.given_name).toBe("Ирина");

    const events = await eventsOf(account.id);
    expect(events.filter((e) => e.type === "user.attributes_changed")).toEqual([
      { type: "user.attributes_changed", clientId: "idp-portal", ip: "203.0.113.7", params: { attributes: ["given_name", "birthdate", "family_name"] } },
    ]);
  });

  it("never changes another account: a version id of someone else is not found, and they are untouched", async () => {
    const mine = await newAccount();
    const theirs = await newAccount({ given_name: "Чужой" });
    const { caller } = await signedIn(mine.id);
    expect(await failureOf(caller.portal.profile.update({ instanceId: theirs.instanceId, attributes: { given_name: "Взлом" } }))).toMatchObject({ code: "NOT_FOUND", appCode: "user.not_found" });
    const contact = caller.portal.profile.startContactChange({ instanceId: theirs.instanceId, attr: "email", value: `x-${tag()}@example.org`, lang: "en" });
    expect(await failureOf(contact)).toMatchObject({ code: "NOT_FOUND" });
    const stored = await t.db.prisma.user.findUniqueOrThrow({ where: { id: theirs.id }, select: { attrs: true } });
    expect(stored.attrs).toEqual({ family_name: "Портал", given_name: "Чужой" });
  });

  it("changes the e-mail by code: wrong code with attempts left, resend after the cooldown, the code in no answer", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const account = await newAccount({ email: { value: `old-${tag()}@example.org`, vrf: true } });
    const { caller } = await signedIn(account.id);
    const email = `new-${tag()}@example.org`;
    const started = await caller.portal.profile.startContactChange({ instanceId: account.instanceId, attr: "email", value: email, lang: "en" });
    const contact = started.contacts.find((c) => c.attr === "email")!;
    expect(contact).toMatchObject({ value: expect.stringMatching(/^old-/), verified: true });
    const { codes } = getConfig();
    expect(contact.pending).toEqual({ state: expect.any(String), value: email, expiresIn: codes.ttl, attemptsLeft: codes.attempts, resendIn: codes.resendCooldown });
    const code = await newestCode(email);
    expect(JSON.stringify(started)).not.toContain(code);
    const { state } = contact.pending!;
    const call = { state, kind: "email" as const, lang: "en" as const };

    const wrong = await caller.portal.profile.confirmContact({ ...call, code: code === "000000" ? "111111" : "000000" });
    expect(wrong).toEqual({ result: "wrong_code", attemptsLeft: codes.attempts - 1 });
    const early = await caller.portal.profile.resendCode(call);
    expect(early).toEqual({ result: "too_soon", retryAfter: codes.resendCooldown });
    vi.advanceTimersByTime(codes.resendCooldown * 1000);
    const resent = await caller.portal.profile.resendCode(call);
    expect(resent).toEqual({ result: "resent", expiresIn: codes.ttl, resendIn: codes.resendCooldown });
    const newCode = await newestCode(email);
    expect(JSON.stringify([wrong, early, resent, await caller.portal.profile.get()])).not.toMatch(new RegExp(`${code}|${newCode}`));

    expect(await caller.portal.profile.confirmContact({ ...call, code: newCode })).toEqual({ result: "confirmed" });
    const after = (await caller.portal.profile.get()).contacts.find((c) => c.attr === "email");
    expect(after).toMatchObject({ value: email, verified: true, pending: null });
    const types = (await eventsOf(account.id)).filter((e) => e.type.startsWith("user.contact")).map((e) => [e.type, e.clientId]);
    expect(types).toEqual([
      ["user.contact_change_started", "idp-portal"],
      ["user.contact_code_wrong", "idp-portal"],
      ["user.contact_code_resent", "idp-portal"],
      ["user.contact_confirmed", "idp-portal"],
    ]);
  });

  it("reports a confirmation that can no longer succeed: attempts used up, or the code expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const account = await newAccount();
    const { caller } = await signedIn(account.id);
    const phone = kind === "pglite" ? "79161234501" : "79161234502";
    const started = await caller.portal.profile.startContactChange({ instanceId: account.instanceId, attr: "phone_number", value: `+7 (${phone.slice(1, 4)}) ${phone.slice(4)}`, lang: "ru" });
    const { state } = started.contacts.find((c) => c.attr === "phone_number")!.pending!;
    const call = { state, kind: "phone" as const, lang: "ru" as const, code: "not-it" };
    const { attempts } = getConfig().codes;
    for (let left = attempts - 1; left > 0; left--) expect(await caller.portal.profile.confirmContact(call)).toEqual({ result: "wrong_code", attemptsLeft: left });
    expect(await caller.portal.profile.confirmContact(call)).toEqual({ result: "failed", cause: "no_attempts_left" });
    expect((await caller.portal.profile.get()).contacts.find((c) => c.attr === "phone_number")!.pending).toBeNull();

    const again = await caller.portal.profile.startContactChange({ instanceId: account.instanceId, attr: "phone_number", value: phone, lang: "ru" });
    const second = again.contacts.find((c) => c.attr === "phone_number")!.pending!;
    vi.advanceTimersByTime(getConfig().codes.ttl * 1000);
    expect(await caller.portal.profile.confirmContact({ ...call, state: second.state, code: await newestCode(phone) })).toEqual({ result: "failed", cause: "code_expired" });
  });

  it("does not let a code be tried on another account's confirmation, nor spends its attempts", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const them = await signedIn(theirs.id);
    const started = await them.caller.portal.profile.startContactChange({ instanceId: theirs.instanceId, attr: "email", value: `their-${tag()}@example.org`, lang: "en" });
    const { state, attemptsLeft } = started.contacts.find((c) => c.attr === "email")!.pending!;
    const { caller } = await signedIn(mine.id);
    expect(await failureOf(caller.portal.profile.confirmContact({ state, kind: "email", lang: "en", code: "123456" }))).toMatchObject({ code: "NOT_FOUND", appCode: "contact.not_found" });
    expect(await failureOf(caller.portal.profile.resendCode({ state, kind: "email", lang: "en" }))).toMatchObject({ code: "NOT_FOUND", appCode: "contact.not_found" });
    expect((await them.caller.portal.profile.get()).contacts.find((c) => c.attr === "email")!.pending!.attemptsLeft).toBe(attemptsLeft);
  });

  it("lists devices with this one marked, signs another out (its session ends), and never another account's", async () => {
    const account = await newAccount();
    const other = await newAccount();
    const phone = await signedIn(account.id, IPHONE);
    const { caller, session } = await signedIn(account.id);
    const theirs = await signedIn(other.id);

    const devices = await caller.portal.devices.list();
    expect(devices.map((d) => [d.name, d.kind, d.current, d.lastIp])).toEqual(
      expect.arrayContaining([
        ["Firefox, Linux", "desktop", true, "203.0.113.7"],
        ["Safari, iOS", "mobile", false, "203.0.113.7"],
      ]),
    );
    expect(devices).toHaveLength(2);
    expect(devices.find((d) => d.current)!.id).toBe(session.session.deviceId);

    const theirDevice = theirs.session.session.deviceId!;
    expect(await failureOf(caller.portal.devices.signOut({ id: theirDevice }))).toMatchObject({ code: "NOT_FOUND", appCode: "device.not_found" });
    expect(await theirs.caller.portal.devices.list()).toHaveLength(1);

    await caller.portal.devices.signOut({ id: phone.session.session.deviceId! });
    expect((await caller.portal.devices.list()).map((d) => d.id)).toEqual([session.session.deviceId]);
    expect(await isCutOff(account.id, phone.session.session.id, Math.floor(Date.now() / 1000) - 1)).toBe(true);
    expect(await failureOf(phone.caller.portal.me())).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await eventsOf(account.id)).filter((e) => e.type === "user.device_removed")).toEqual([
      { type: "user.device_removed", clientId: "idp-portal", ip: "203.0.113.7", params: { device: phone.session.session.deviceId, ended: 1 } },
    ]);

    // Signing out the device in hand ends the portal session it came from too.
    await caller.portal.devices.signOut({ id: session.session.deviceId! });
    expect(await failureOf(caller.portal.devices.list())).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("lists consents by application name and revokes one, never another account's", async () => {
    const account = await newAccount();
    const other = await newAccount();
    await grantConsent(account.id, "rp-shop", ["openid", "profile"], admin);
    await grantConsent(other.id, "rp-shop", ["openid"], admin);
    const { caller } = await signedIn(account.id);
    const theirs = await signedIn(other.id);
    const [consent] = await caller.portal.consents.list();
    expect(consent).toEqual({ id: expect.any(String), clientId: "rp-shop", clientName: "Shop", scopes: ["openid", "profile"], updated: expect.any(Number) });
    const [theirConsent] = await theirs.caller.portal.consents.list();

    expect(await failureOf(caller.portal.consents.revoke({ id: theirConsent!.id }))).toMatchObject({ code: "NOT_FOUND", appCode: "consent.not_found" });
    expect(await theirs.caller.portal.consents.list()).toHaveLength(1);

    await caller.portal.consents.revoke({ id: consent!.id });
    expect(await caller.portal.consents.list()).toEqual([]);
    expect(await failureOf(caller.portal.consents.revoke({ id: consent!.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect((await eventsOf(account.id)).filter((e) => e.type === "user.consent_revoked")).toEqual([
      { type: "user.consent_revoked", clientId: "idp-portal", ip: "203.0.113.7", params: { client: "rp-shop" } },
    ]);
  });

  it("lists the person's own events newest first, by type, a page at a time, with the browser named", async () => {
    const account = await newAccount();
    const other = await newAccount();
    const { caller } = await signedIn(account.id);
    let version = account.instanceId;
    for (const name of ["А", "Б", "В"]) version = (await caller.portal.profile.update({ instanceId: version, attributes: { given_name: name } })).instanceId;
    await grantConsent(account.id, "rp-shop", ["openid"], { ...admin, subject: account.id });
    await (await signedIn(other.id)).caller.portal.profile.update({ instanceId: other.instanceId, attributes: { given_name: "Другой" } });

    const all = await caller.portal.events.list({});
    expect(all.events.map((e) => e.type)).toEqual(["user.consent_granted", "user.attributes_changed", "user.attributes_changed", "user.attributes_changed"]);
    expect(all.events[1]).toMatchObject({ clientId: "idp-portal", ip: "203.0.113.7", device: "Firefox, Linux", params: { attributes: ["given_name"] } });
    expect(all.nextCursor).toBeNull();
    expect((await caller.portal.events.list({ types: ["user.consent_granted"] })).events).toHaveLength(1);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await caller.portal.events.list({ limit: 1, cursor, direction: "forward" });
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.events.map((e) => e.id));
    expect(await failureOf(caller.portal.events.list({ cursor: "not-a-cursor" }))).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("shows and changes only what the idp-portal client's attribute selections allow", async () => {
    await ensureBuiltinClients();
    const account = await newAccount({ given_name: "Выбор", email: { value: `sel-${tag()}@example.org`, vrf: true } });
    const { caller } = await signedIn(account.id);
    await setSelection("idp-portal", { scope: "idp_api_user", attributes: ["sub", "family_name", "given_name", "email"] }, admin);
    await setSelection("idp-portal", { scope: "idp_api_user_chg", attributes: ["given_name"] }, admin);
    try {
      const profile = await caller.portal.profile.get();
      expect(profile.fields.map((f) => [f.name, f.editable])).toEqual([
        ["family_name", false],
        ["given_name", true],
      ]);
      expect(profile.contacts.map((c) => [c.attr, c.editable])).toEqual([["email", false]]);
      const refused = await failureOf(caller.portal.profile.update({ instanceId: profile.instanceId, attributes: { family_name: "Другая", middle_name: "Скрытое" } }));
      expect((refused.items as { pos: string }[]).map((i) => i.pos)).toEqual(["family_name", "middle_name"]);
      const contact = caller.portal.profile.startContactChange({ instanceId: profile.instanceId, attr: "email", value: `other-${tag()}@example.org`, lang: "en" });
      expect(await failureOf(contact)).toMatchObject({ code: "BAD_REQUEST", items: [expect.objectContaining({ pos: "email" })] });
      expect((await caller.portal.profile.update({ instanceId: profile.instanceId, attributes: { given_name: "Можно" } })).attributes.given_name).toBe("Можно");
    } finally {
      for (const scope of ["idp_api_user", "idp_api_user_chg"] as const) await setSelection("idp-portal", { scope, attributes: null }, admin);
    }
  });

  it("refuses every portal call without a portal session, and for a locked account", async () => {
    const account = await newAccount();
    const anonymous = appRouter.createCaller({ session: null, portalSession: null });
    expect(await failureOf(anonymous.portal.profile.get())).toMatchObject({ code: "UNAUTHORIZED" });
    const { caller } = await signedIn(account.id);
    await updateUserAttributes(account.instanceId, { locked: true }, admin);
    expect(await failureOf(caller.portal.devices.list())).toMatchObject({ code: "UNAUTHORIZED" });
  });
});
