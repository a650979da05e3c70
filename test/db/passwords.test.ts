import type { Session } from "next-auth";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAuthModes, saveAuthModes } from "../../server/auth-modes/auth-modes.repository.ts";
import { changeAuthModes } from "../../server/auth-modes/auth-modes.service.ts";
import { hashSecret, verifySecret } from "../../server/crypto/password-hash.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { listOutbox, readMessageText } from "../../server/messaging/outbox.service.ts";
import { changePassword, type TPasswordChange } from "../../server/passwords/password-change.service.ts";
import { changePasswordPolicy, getPasswordPolicy } from "../../server/passwords/policy-store.ts";
import { DEFAULT_POLICY } from "../../server/passwords/policy.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { findPasswordHash } from "../../server/users/users.repository.ts";
import { createAccount, readAccount } from "../../server/users/users.service.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const admin = { subject: "test-admin" };
let seq = 0;
const tag = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

async function newAccount(password: string | null = "first correct horse", attrs: Record<string, unknown> = {}) {
  const { inTransaction } = await import("../../server/db/index.ts");
  const passwordHash = password === null ? null : await hashSecret(password);
  const created = await inTransaction((tx) => createAccount({ attrs: { sub: `pw-${tag()}`, ...attrs }, passwordHash }, { contactFlag: "vrf", allowed: null }, tx));
  return readAccount(created.id);
}

const system = { mode: "system" as const, actor: { clientId: "users-app" } };
const user = (ip = "203.0.113.9") => ({ mode: "user" as const, actor: { clientId: "rp-web", ip } });
const change = async (id: string, input: Omit<TPasswordChange, "locale">, how: Parameters<typeof changePassword>[2] = system) =>
  changePassword(await readAccount(id), { locale: "en", ...input }, how);

async function refusal(p: Promise<unknown>): Promise<{ code: string; rules?: string[]; items?: unknown; flat?: boolean }> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  const a = e as AppError;
  return { code: a.code, rules: a.details.items?.map((i) => String(i.params?.rule ?? i.pos)), items: a.details.items, flat: a.details.flat };
}

describe.each(DB_KINDS)("passwords on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());

  const historyOf = (userId: string) => t.db.prisma.passwordHistory.findMany({ where: { userId }, orderBy: { setAt: "desc" }, select: { hash: true } });

  it("imports passwordPolicy: created, then unchanged, then updated; a bad one refused with its path", async () => {
    const doc = { passwordPolicy: { minLength: 9, groups: [{ desc: "digits", class: "digit" }] } };
    expect((await importDocument(doc, admin)).passwordPolicy).toEqual({ created: ["default"], updated: [], unchanged: [] });
    expect((await getPasswordPolicy()).minLength).toBe(9);
    expect((await importDocument(doc, admin)).passwordPolicy).toEqual({ created: [], updated: [], unchanged: ["default"] });
    expect((await importDocument({ passwordPolicy: {} }, admin)).passwordPolicy).toEqual({ created: [], updated: ["default"], unchanged: [] });
    expect(await getPasswordPolicy()).toEqual(DEFAULT_POLICY);
    const bad = await refusal(importDocument({ passwordPolicy: { minLength: "8", historySize: -1 } }, admin));
    expect(bad.code).toBe("import.invalid_document");
    expect((bad.items as { pos: string }[]).map((i) => i.pos).sort()).toEqual(["$.passwordPolicy.historySize", "$.passwordPolicy.minLength"]);
  });

  it("stores the policy: the default until saved, validated, seen at once after a change", async () => {
    expect(await getPasswordPolicy()).toEqual(DEFAULT_POLICY);
    const bad = await refusal(changePasswordPolicy({ minLength: 2, groups: [{ desc: "x" }], extra: 1 }, admin));
    expect(bad.code).toBe("request.invalid_values");
    expect(await getPasswordPolicy()).toEqual(DEFAULT_POLICY);
    const saved = await changePasswordPolicy({ minLength: 10, stopWords: ["acme"] }, admin);
    expect(saved).toMatchObject({ minLength: 10, stopWords: ["acme"], historySize: 5, dictionary: true });
    expect(await getPasswordPolicy()).toEqual(saved);
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "password.policy_changed" }, select: { params: true } });
    expect(events).toHaveLength(1);
    await changePasswordPolicy({}, admin);
    expect(await getPasswordPolicy()).toEqual(DEFAULT_POLICY);
  });

  it("the console reads and saves the policy through tRPC: field errors by path, admins only, who changed it recorded", async () => {
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    const console_ = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
    expect(await console_.console.passwordPolicy.get()).toEqual(DEFAULT_POLICY);
    const bad = await console_.console.passwordPolicy.save({ minLength: Number.NaN, groups: [{ desc: "", class: "digit", minNumberSymbols: 1 }] } as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(TRPCError);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    const saved = await console_.console.passwordPolicy.save({ minLength: 12, groups: [{ desc: "digits", class: "digit", minNumberSymbols: 2 }], minGroups: 1 } as never);
    expect(saved).toMatchObject({ minLength: 12, minGroups: 1, groups: [{ desc: "digits", class: "digit", minNumberSymbols: 2 }] });
    expect(await getPasswordPolicy()).toEqual(saved);
    const event = await t.db.prisma.securityEvent.findFirst({ where: { type: "password.policy_changed" }, orderBy: { id: "desc" }, select: { subject: true, params: true } });
    expect(event).toMatchObject({ subject: adminId, params: { by: "console", admin: adminId } });
    const user = await newAccount();
    const nobody = appRouter.createCaller({ session: { user: { id: user.id }, expires: "2999-01-01T00:00:00Z" } as Session });
    await expect(nobody.console.passwordPolicy.save({} as never)).rejects.toBeInstanceOf(TRPCError);
    await changePasswordPolicy({}, admin);
  });

  it("the portal changes the person's own password: policy items in their language, a wrong current one at its field, this browser kept", async () => {
    const a = await newAccount("first correct horse");
    const here = await startSession({ userId: a.id, amr: ["pwd"], ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" });
    const there = await startSession({ userId: a.id, amr: ["pwd"], ip: "203.0.113.8", userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1" });
    const portalSession = portalSessionOf(a.id, here.session.id);
    const caller = appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "Firefox", deviceKey: here.deviceKey });
    expect(await caller.portal.password.rules()).toEqual({ minLength: 15, directory: null });
    const failure = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a refusal"); }, (e: unknown) => (e as TRPCError).cause as AppError);
    const policy = await failure(caller.portal.password.change({ current: "first correct horse", password: "1qaz2wsx3edc4rfv", locale: "ru" }));
    expect(policy.details.items).toEqual([{ error: "password_policy_violated", desc: "Это один из самых распространённых паролей, его легко подобрать", pos: "password", params: { rule: "in_password_dic" } }]);
    const short = await failure(caller.portal.password.change({ current: "first correct horse", password: "fourteen chars", locale: "ru" }));
    expect(short.details.items).toEqual([{ error: "password_policy_violated", desc: "Пароль должен содержать не менее 15 символов", pos: "password", params: { rule: "to_short", low: 15 } }]);
    const wrong = await failure(caller.portal.password.change({ current: "not it", password: "a fine new passphrase", locale: "en" }));
    expect(wrong.code).toBe("request.invalid_values");
    expect(wrong.details.items).toEqual([{ error: "invalid_credential", desc: "The current password is wrong", pos: "current" }]);
    await caller.portal.password.change({ current: "first correct horse", password: "a fine new passphrase", locale: "en" });
    expect(await verifySecret((await findPasswordHash(a.id))!, "a fine new passphrase")).toBe(true);
    const sessions = await t.db.prisma.browserSession.findMany({ where: { userId: a.id }, select: { id: true } });
    expect(sessions.map((x) => x.id)).toEqual([here.session.id]);
    expect(await t.db.prisma.device.count({ where: { userId: a.id } })).toBe(1);
    expect(there.session.id).not.toBe(here.session.id);
    // This browser's portal session goes on.
    expect((await caller.portal.me()).sub).toBe(a.id);
  });

  it("refuses the current password and the last five, keeps six hashes, never plain text", async () => {
    const a = await newAccount("first correct horse");
    expect((await refusal(change(a.id, { password: "first correct horse" }))).rules).toEqual(["eq_current"]);
    // In user mode the current password is known: the same one, however its accents are encoded.
    const accented = await newAccount("caf\u00e9 au lait 12");
    expect((await refusal(change(accented.id, { current: "caf\u00e9 au lait 12", password: "cafe\u0301 au lait 12" }, user()))).rules).toEqual(["eq_current"]);
    for (let i = 1; i <= 6; i++) await change(a.id, { password: `passphrase number ${i}` });
    const history = await historyOf(a.id);
    expect(history).toHaveLength(6);
    expect(history.every((h) => h.hash.startsWith("$argon2id$"))).toBe(true);
    expect(JSON.stringify(history)).not.toContain("passphrase");
    expect(await verifySecret((await findPasswordHash(a.id))!, "passphrase number 6")).toBe(true);
    for (const old of ["passphrase number 1", "passphrase number 5"]) {
      expect((await refusal(change(a.id, { password: old }))).rules).toEqual(["in_password_history"]);
    }
    // The one before those five: out of a history of five.
    await change(a.id, { password: "first correct horse" });
  });

  it("reports cheap rules without argon2 work, then the configured ones", async () => {
    const a = await newAccount();
    const r = await refusal(change(a.id, { password: "1qaz2wsx3edc4rfv" }));
    expect(r).toMatchObject({ code: "password.policy_violated", rules: ["in_password_dic"] });
    expect(r.items).toEqual([{ error: "password_policy_violated", desc: "This is one of the most common passwords and easy to guess", pos: "password", params: { rule: "in_password_dic" } }]);
    expect((await refusal(change(a.id, { password: "short" }))).items).toEqual([
      { error: "password_policy_violated", desc: "The password must be at least 15 characters long", pos: "password", params: { rule: "to_short", low: 15 } },
    ]);
  });

  it("lets an account whose second factor is on choose a password of 8, one without a second factor not under 15", async () => {
    const { inTransaction } = await import("../../server/db/index.ts");
    const withOtp = await newAccount();
    await inTransaction((tx) => saveAuthModes(withOtp.id, { secondFactor: true, needPasswordChange: false, methodsLocked: [] }, tx));
    const without = await newAccount();
    // The portal's form tells each person their own minimum.
    const here = await startSession({ userId: withOtp.id, amr: ["pwd", "otp"], ip: "203.0.113.7", userAgent: "Firefox" });
    const caller = appRouter.createCaller({ session: null, portalSession: portalSessionOf(withOtp.id, here.session.id), ip: "203.0.113.7", userAgent: "Firefox", deviceKey: here.deviceKey });
    expect(await caller.portal.password.rules()).toEqual({ minLength: 8, directory: null });
    for (const how of [system, user()]) {
      const current = how.mode === "user" ? { current: "first correct horse" } : {};
      expect((await refusal(change(without.id, { ...current, password: "kq2!x7#a" }, how))).items).toEqual([
        { error: "password_policy_violated", desc: "The password must be at least 15 characters long", pos: "password", params: { rule: "to_short", low: 15 } },
      ]);
      expect((await refusal(change(withOtp.id, { ...current, password: "kq2!x7#" }, how))).items).toEqual([
        { error: "password_policy_violated", desc: "The password must be at least 8 characters long", pos: "password", params: { rule: "to_short", low: 8 } },
      ]);
    }
    await change(withOtp.id, { current: "first correct horse", password: "kq2!x7#a" }, user());
    expect(await verifySecret((await findPasswordHash(withOtp.id))!, "kq2!x7#a")).toBe(true);
    expect(await verifySecret((await findPasswordHash(without.id))!, "first correct horse")).toBe(true);

    // Turning the second factor off leaves that password alone in front of the account: the next
    // sign-in asks for a new one, and the event says why.
    const off = await changeAuthModes(withOtp.id, { requiredFactor: null }, { subject: withOtp.id, clientId: "rp-web" });
    expect(off).toMatchObject({ secondFactor: false, needPasswordChange: true });
    const event = await t.db.prisma.securityEvent.findFirst({ where: { subject: withOtp.id, type: "user.auth_modes_changed" }, orderBy: { id: "desc" }, select: { params: true } });
    expect(event!.params).toMatchObject({ secondFactor: false, needPasswordChange: true, forcedChangeReason: "password_short_for_single_factor" });

    // A password long enough on its own asks for nothing when the second factor goes.
    const { inTransaction: tx2 } = await import("../../server/db/index.ts");
    const longOne = await newAccount();
    await tx2((tx) => saveAuthModes(longOne.id, { secondFactor: true, needPasswordChange: false, methodsLocked: [] }, tx));
    await change(longOne.id, { password: "a passphrase long enough alone" });
    await changeAuthModes(longOne.id, { requiredFactor: null }, { subject: longOne.id });
    expect(await findAuthModes(longOne.id)).toMatchObject({ secondFactor: false, needPasswordChange: false });
  });

  it("a stranger who fills the account's ceiling of wrong current passwords does not stop the owner's browser in the portal", async () => {
    const a = await newAccount("first correct horse");
    for (let i = 0; i < 50; i++) {
      expect((await refusal(change(a.id, { current: `guess ${i}`, password: "new passphrase 1" }, user(`198.51.100.${i + 1}`)))).code).toBe("password.invalid_credential");
    }
    // A new address is held back by the ceiling: the account as a whole has seen too many guesses.
    expect((await refusal(change(a.id, { current: "first correct horse", password: "new passphrase 1" }, user("203.0.113.200")))).code).toBe("password.locked_out");
    const here = await startSession({ userId: a.id, amr: ["pwd"], ip: "203.0.113.7", userAgent: "Firefox" });
    const caller = appRouter.createCaller({ session: null, portalSession: portalSessionOf(a.id, here.session.id), ip: "203.0.113.7", userAgent: "Firefox", deviceKey: here.deviceKey });
    await caller.portal.password.change({ current: "first correct horse", password: "the owner's new passphrase", locale: "en" });
    expect(await verifySecret((await findPasswordHash(a.id))!, "the owner's new passphrase")).toBe(true);
    // The known browser has a limit of its own: five wrong current passwords, and even the right one waits.
    const cause = (p: Promise<unknown>) => p.then(() => "changed", (e: unknown) => ((e as TRPCError).cause as AppError).code);
    for (let i = 0; i < 5; i++) expect(await cause(caller.portal.password.change({ current: `guess ${i}`, password: "another long passphrase", locale: "en" }))).toBe("request.invalid_values");
    expect(await cause(caller.portal.password.change({ current: "the owner's new passphrase", password: "another long passphrase", locale: "en" }))).toBe("password.locked_out");
  });

  it("user mode: needs the right current password, counts wrong ones, applies minimum age and new characters", async () => {
    await changePasswordPolicy({ minAgeSec: 3600, minNewChars: 3 }, admin);
    try {
      const a = await newAccount("first correct horse");
      expect((await refusal(change(a.id, { password: "something new 1" }, user()))).items).toEqual([{ error: "wrong_value", desc: "current is required", pos: "current" }]);
      expect((await refusal(change(a.id, { current: "wrong", password: "something new 1" }, user()))).code).toBe("password.invalid_credential");
      expect((await refusal(change(a.id, { current: "first correct horse", password: "first correct horse!" }, user()))).items).toEqual([
        { error: "password_policy_violated", desc: "The new password needs at least 3 characters that the current one does not have", pos: "password", params: { rule: "not_enough_new_chars", minNew: 3 } },
      ]);
      await change(a.id, { current: "first correct horse", password: "quite different 42" }, user());
      expect((await refusal(change(a.id, { current: "quite different 42", password: "another one 7XZ" }, user()))).items).toEqual([
        { error: "password_policy_violated", desc: "The password can be changed once every 3600 seconds at most", pos: "password", params: { rule: "too_young", minAgeInSec: 3600 } },
      ]);
      // An administrator's reset is not held back by the minimum age.
      await change(a.id, { password: "another one 7XZ" });
      const failed = await t.db.prisma.securityEvent.findMany({ where: { subject: a.id }, select: { type: true }, orderBy: { id: "asc" } });
      expect(failed.map((e) => e.type)).toEqual(expect.arrayContaining(["user.password_change_failed", "user.password_changed", "user.sessions_reset"]));

      const b = await newAccount("first correct horse");
      const ip = "203.0.113.77";
      for (let i = 0; i < 5; i++) expect((await refusal(change(b.id, { current: `guess ${i}`, password: "new passphrase 1" }, user(ip)))).code).toBe("password.invalid_credential");
      const locked = await refusal(change(b.id, { current: "first correct horse", password: "new passphrase 1" }, user(ip)));
      expect(locked.code).toBe("password.locked_out");
      expect(await verifySecret((await findPasswordHash(b.id))!, "first correct horse")).toBe(true);
    } finally {
      await changePasswordPolicy({}, admin);
    }
  });

  it("generates a password and sends it by SMS to a phone attribute; a wrong attribute changes nothing", async () => {
    const phone = `79${String(Date.now()).slice(-9)}`;
    const a = await newAccount("first correct horse", { phone_number: { value: phone, vrf: true }, given_name: "Иван" });
    for (const attr of ["given_name", "email", "no_such_attr"]) {
      const r = await refusal(change(a.id, { sendPswdToAttr: attr }));
      expect(r.code).toBe("request.invalid_values");
      expect((r.items as { pos: string; error: string }[])[0]).toMatchObject({ error: "wrong_value", pos: "sendPswdToAttr" });
    }
    expect(await verifySecret((await findPasswordHash(a.id))!, "first correct horse")).toBe(true);
    const unconfirmed = await newAccount("first correct horse", { phone_number: { value: `78${String(Date.now()).slice(-9)}`, vrf: false } });
    expect((await refusal(change(unconfirmed.id, { sendPswdToAttr: "phone_number" }))).items).toEqual([
      { error: "wrong_value", desc: "the user's phone_number is not confirmed", pos: "sendPswdToAttr" },
    ]);
    await change(a.id, { sendPswdToAttr: "phone_number" });
    const sent = (await listOutbox({ limit: 50 })).items.filter((m) => m.purpose === "password.new" && m.userId === a.id);
    expect(sent).toHaveLength(1);
    const { text } = await readMessageText(sent[0]!.id, admin);
    const password = /: (\S+)\. /.exec(text)![1]!;
    expect([...password].length).toBe(16);
    expect(await verifySecret((await findPasswordHash(a.id))!, password)).toBe(true);
  });

  it("racing changes: every loser is refused with id_store, the winner's password and history stand", async () => {
    const a = await newAccount("first correct horse");
    const tries = ["race number one 111", "race number two 222", "race number three 333", "race number four 444"];
    const results = await Promise.all(tries.map((p) => change(a.id, { password: p }).then(() => p, (e: unknown) => e)));
    const won = results.filter((r): r is string => typeof r === "string");
    const lost = results.filter((r) => typeof r !== "string") as AppError[];
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const e of lost) {
      expect(e.code).toBe("password.store_refused");
      expect(e.details).toMatchObject({ flat: true, items: [{ error: "password_policy_violated", pos: "password", params: { rule: "id_store" } }] });
    }
    const current = (await findPasswordHash(a.id))!;
    const matches = await Promise.all(won.map((p) => verifySecret(current, p)));
    expect(matches.filter(Boolean)).toHaveLength(1);
    expect(await historyOf(a.id)).toHaveLength(1 + won.length);
  });
});
