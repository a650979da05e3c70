import bcrypt from "bcryptjs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hashSecret, IMPORTABLE_HASH } from "../../server/crypto/password-hash.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { checkCredentials } from "../../server/sign-in/sign-in.service.ts";
import { findActiveAdmin } from "../../server/users/admin.service.ts";
import { getConfig } from "../../server/config/config.ts";
import { confirmContactChange } from "../../server/contacts/contact-change.service.ts";
import { inTransaction } from "../../server/db/index.ts";
import { listOutbox, readMessageText } from "../../server/messaging/outbox.service.ts";
import { confirmRegistration } from "../../server/registration/confirm-registration.service.ts";
import { register } from "../../server/registration/registration.service.ts";
import { changeUserV3, deleteUserV3, getUserV3 } from "../../server/users/user-attributes.service.ts";
import { createAccount } from "../../server/users/users.service.ts";
import type { TRequestContext } from "../../server/http/request-context.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// Service-level tests of what needs a controlled clock or a configuration the API suite's server does
// not run with: code expiry, and registration that creates accounts at once.
const ctx: TRequestContext = { requestId: "test-request-1", actor: { mode: "system", clientId: "svc", scopes: [], jti: "j" } };
const actor = { clientId: "svc" };

async function newestCode(to: string): Promise<string> {
  const { items } = await listOutbox({ limit: 20 });
  const message = items.find((m) => m.recipient === to);
  if (!message) throw new Error(`no message to ${to}`);
  return /\b(\d{6})\b/.exec((await readMessageText(message.id, actor)).text)![1]!;
}

describe.each(DB_KINDS)("accounts on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());
  afterEach(() => {
    vi.useRealTimers();
    getConfig().registrationMode = "confirm-first";
  });

  it("lets an imported administrator sign in by sub with a bcrypt hash, and replaces the hash with argon2id", async () => {
    const hash = bcrypt.hashSync("imported-admin-pass", 4);
    expect(IMPORTABLE_HASH.test(hash) && IMPORTABLE_HASH.test(await hashSecret("x"))).toBe(true);
    await importDocument({ users: [{ sub: `boss-${kind}`, roles: ["admin"], attributes: { family_name: "Начальник" }, passwordHash: hash }] }, {});
    // The sign-in page's check, as the console's sign-in now goes through it.
    const signIn = (password: string) => checkCredentials({ identifier: `boss-${kind}`, password }, {});
    expect(await signIn("wrong-password")).toEqual({ ok: false, reason: "invalid_credentials" });
    expect(await signIn("imported-admin-pass")).toEqual({
      ok: true,
      userId: `boss-${kind}`,
      amr: ["pwd"],
      // Written with the session the sign-in starts.
      events: [{ type: "user.signed_in", actor: { subject: `boss-${kind}` }, params: { method: "pwd", by: "sub" } }],
    });
    const stored = await t.db.prisma.user.findUnique({ where: { id: `boss-${kind}` }, select: { passwordHash: true } });
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect((await signIn("imported-admin-pass")).ok).toBe(true);
    expect(await findActiveAdmin(`boss-${kind}`)).toEqual({ id: `boss-${kind}`, login: `boss-${kind}`, roles: ["admin"], grants: ["read", "manage_users", "configure"] });
  });

  it("refuses a right code after the code's lifetime with code_expired, and drops it from notes", async () => {
    const account = await inTransaction((tx) => createAccount({ attrs: { family_name: "Часов" } }, { contactFlag: "vrf", allowed: null }, tx));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const changed = await changeUserV3(ctx, account.instanceId, { email: { value: `clock-${kind}@example.ru`, vrf: false } }, "ru");
    const state = changed.notes!.actions[0]!.state;
    const code = await newestCode(`clock-${kind}@example.ru`);
    vi.advanceTimersByTime(getConfig().codes.ttl * 1000 - 1000);
    expect((await getUserV3(ctx, account.id)).notes?.actions[0]?.exp).toBe(1);
    vi.advanceTimersByTime(1000);
    expect((await getUserV3(ctx, account.id)).notes).toBeUndefined();
    const late = await confirmContactChange({ kind: "email", state, request: { cmd: "code", value: code }, actor, locale: "ru" });
    expect(late).toEqual({ kind: "failed", failure: { id: state, cause: "code_expired", attr: "email" } });
    expect((await getUserV3(ctx, account.id)).email).toBeUndefined();
  });

  it("shows a registration's expired code as *-expired without exp, and a resend revives it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const phone = kind === "pglite" ? "79001112233" : "79001112234";
    const r = await register({ attrs: { phone_number: { value: phone, verified: false } }, dynClientIds: [], contactFlag: "verified", mode: "confirm-first", clientId: "svc", locale: "en", actor });
    vi.advanceTimersByTime(getConfig().codes.ttl * 1000 + 1);
    const code = await newestCode(phone);
    const expired = await confirmRegistration(r.context, { sms_code: code }, "en", actor);
    expect(expired.instructions).toEqual([{ name: "mbl-expired", mobile: phone, attemts: 3 }]);
    const resent = await confirmRegistration(r.context, { sms_code_resend: "1" }, "en", actor);
    expect(resent.instructions[0]).toMatchObject({ name: "mbl-enter-code", exp: Math.floor(Date.now() / 1000) + getConfig().codes.ttl });
    const done = await confirmRegistration(r.context, { sms_code: await newestCode(phone) }, "en", actor);
    expect(done.subject).toEqual(expect.any(String));
  });

  it("creates the account at once in create-first mode and confirms the contact on it later", async () => {
    getConfig().registrationMode = "create-first";
    const email = `first-${kind}@example.ru`;
    const r = await register({ attrs: { email: { value: email, verified: false } }, dynClientIds: [], contactFlag: "verified", mode: getConfig().registrationMode, clientId: "svc", locale: "ru", actor });
    expect(r).toEqual({ instanceId: expect.any(String), subject: expect.any(String), context: expect.any(String), cookies: [], instructions: [expect.objectContaining({ name: "eml-enter-code", email })] });
    expect((await getUserV3(ctx, r.subject!)).email).toEqual({ value: email, vrf: false });
    const done = await confirmRegistration(r.context, { email_code: await newestCode(email) }, "ru", actor);
    expect(done).toMatchObject({ subject: r.subject, context: "", instructions: [] });
    expect((await getUserV3(ctx, r.subject!)).email).toEqual({ value: email, vrf: true });
  });

  it("removes unfinished registrations and long-expired confirmations in maintenance", async () => {
    const phone = kind === "pglite" ? "79005550001" : "79005550002";
    const r = await register({ attrs: { phone_number: { value: phone, verified: false } }, dynClientIds: [], contactFlag: "verified", mode: "confirm-first", clientId: "svc", locale: "en", actor });
    const account = await inTransaction((tx) => createAccount({ attrs: {} }, { contactFlag: "vrf", allowed: null }, tx));
    await changeUserV3(ctx, account.instanceId, { email: { value: `maint-${kind}@example.ru`, vrf: false } }, "en");
    expect(await runMaintenance(new Date())).toMatchObject({ registrations: 0, confirmations: 0 });
    const later = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
    const removed = await runMaintenance(later);
    expect(removed.registrations).toBeGreaterThanOrEqual(1);
    expect(removed.confirmations).toBeGreaterThanOrEqual(1);
    expect(await t.db.prisma.registration.count({ where: { context: r.context } })).toBe(0);
    expect(await t.db.prisma.confirmation.count({ where: { userId: account.id } })).toBe(0);
  });

  it("ends an open registration with the account it created when the account is deleted", async () => {
    getConfig().registrationMode = "create-first";
    const email = `gone-${kind}@example.ru`;
    const r = await register({ attrs: { email: { value: email, verified: false } }, dynClientIds: [], contactFlag: "verified", mode: "create-first", clientId: "svc", locale: "en", actor });
    await deleteUserV3(ctx, r.instanceId!);
    expect(await t.db.prisma.registration.count({ where: { context: r.context } })).toBe(0);
    expect(await t.db.prisma.confirmation.count({ where: { registrationId: r.context } })).toBe(0);
    await expect(confirmRegistration(r.context, { email_code: "123456" }, "en", actor)).rejects.toMatchObject({ code: "registration.not_found" });
  });
});
