import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitToConsole } from "../../server/auth/console-admission.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { listOutbox, readMessageText } from "../../server/messaging/outbox.service.ts";
import { inviteUsable, useRecoveryInvite } from "../../server/recovery/recovery-invites.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin, findActiveAdmin } from "../../server/users/admin.service.ts";
import { deleteAccount } from "../../server/users/users.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The console's role model (server/users/admin.service.ts), checked on every console procedure:
// an auditor reads and changes nothing, a user manager changes people's accounts but not the
// service's configuration nor any account that holds a console role, an administrator does
// everything, and the last administrator keeps the role.

type TCaller = ReturnType<typeof appRouter.createCaller>;
const callerFor = (id: string): TCaller => appRouter.createCaller({ session: { user: { id }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.40", userAgent: "RolesBrowser" });
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => "accepted",
    (e: { code?: string; cause?: { code?: string } }) => `${e.code} ${e.cause?.code ?? ""}`.trim(),
  );

/** Every console procedure, by its path ("console.users.list") and kind. */
const PROCEDURES = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures)
  .filter(([path]) => path.startsWith("console."))
  .map(([path, p]) => ({ path, type: p._def.type }));

/** Calls a procedure by its path with an input no procedure accepts: what is left is whether the role got through. */
function callByPath(caller: TCaller, path: string): Promise<unknown> {
  const fn = path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
  return fn({ notAField: true });
}

/** What a user manager may change: people's accounts. Everything else that changes is the administrator's. */
const USER_MANAGER_MUTATIONS = [
  "console.accountSecurity.changeProps", "console.accountSecurity.endUntouchable", "console.accountSecurity.setUntouchable", "console.accountSecurity.unlock",
  "console.users.bulk",
  "console.groups.addMember", "console.groups.removeMember",
  "console.otp.removeGenerator", "console.otp.resetSecondFactor", "console.otp.setAuthModes",
  "console.passkeys.remove",
  "console.providers.unbind",
  "console.sessions.endAll", "console.sessions.revokeConsent", "console.sessions.signOutDevice",
  "console.users.create", "console.users.delete", "console.users.sendRecovery", "console.users.setLocked", "console.users.setPassword", "console.users.update",
];
/**
 * Mutations only an administrator makes (every mutation not listed above is one; these are named so
 * that a rename cannot drop them from the check): the passkey policy and its FIDO metadata.
 */
const ADMIN_MUTATIONS = ["console.passkeyPolicy.save", "console.passkeyPolicy.uploadMetadata"];
/** Queries only an administrator makes: a message's text can hold a code. */
const ADMIN_QUERIES = ["console.outbox.text"];
/**
 * Mutations every role may make: a download that is recorded as an event, and a template preview
 * whose text travels in a POST body; neither changes anything.
 */
const READ_MUTATIONS = ["console.users.export", "console.templates.preview"];

describe.each(DB_KINDS)("console roles on %s", (kind) => {
  let t: TTestDatabase;
  let adminId: string;
  const ids = { manager: `manager-${kind}`, auditor: `auditor-${kind}`, person: `person-${kind}`, deputy: `deputy-${kind}`, hire: `hire-${kind}` };

  /** The token of the newest recovery link sent to `to`, read from the outbox as an administrator would. */
  async function linkTokenTo(to: string): Promise<string> {
    const message = (await listOutbox({ limit: 50 })).items.find((m) => m.recipient === to && m.purpose === "recovery.invite");
    return new URL(/(https?:\/\/\S+)/.exec((await readMessageText(message!.id, {})).text)![1]!).searchParams.get("t")!;
  }

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    await importDocument(
      {
        users: [
          { sub: ids.manager, roles: ["user_manager", "app-editor"] },
          { sub: ids.auditor, roles: ["auditor"] },
          { sub: ids.person, password: "the person's first passphrase" },
          { sub: ids.deputy },
          { sub: ids.hire, attributes: { email: { value: `${ids.hire}@example.org`, vrf: true } }, password: "the new hire's passphrase" },
        ],
      },
      {},
    );
  });
  afterAll(async () => t?.close());

  it("lets every role in, and no one without one", async () => {
    expect(await admitToConsole(ids.manager)).toBe(true);
    expect(await admitToConsole(ids.auditor)).toBe(true);
    expect(await admitToConsole(ids.person)).toMatch(/error=not_admin$/);
    expect(await findActiveAdmin(ids.manager)).toMatchObject({ roles: ["user_manager"], grants: ["read", "manage_users"] });
  });

  it("checks the role on every console procedure: auditors read, user managers change accounts, administrators configure", async () => {
    expect(PROCEDURES.length).toBeGreaterThan(70);
    expect(ADMIN_MUTATIONS.filter((p) => !PROCEDURES.some((x) => x.path === p && x.type === "mutation"))).toEqual([]);
    expect(ADMIN_MUTATIONS.filter((p) => USER_MANAGER_MUTATIONS.includes(p) || READ_MUTATIONS.includes(p))).toEqual([]);
    const forbidden = "FORBIDDEN console.forbidden";
    for (const { path, type } of PROCEDURES) {
      const reads = (type === "query" && !ADMIN_QUERIES.includes(path)) || READ_MUTATIONS.includes(path);
      expect(await outcome(callByPath(callerFor(ids.auditor), path)) === forbidden, `${path} as an auditor`).toBe(!reads);
      const manages = reads || USER_MANAGER_MUTATIONS.includes(path);
      expect(await outcome(callByPath(callerFor(ids.manager), path)) === forbidden, `${path} as a user manager`).toBe(!manages);
      expect(await outcome(callByPath(callerFor(adminId), path)), `${path} as an administrator`).not.toBe(forbidden);
    }
    const denied = await t.db.prisma.securityEvent.findFirst({ where: { type: "console.access_denied", subject: ids.auditor }, orderBy: { id: "desc" } });
    expect(denied?.params).toMatchObject({ reason: "role", roles: ["auditor"] });
  });

  it("keeps a user manager away from accounts that hold a console role", async () => {
    const manager = callerFor(ids.manager);
    const person = await manager.console.users.get({ sub: ids.person });
    expect(await outcome(manager.console.users.setPassword({ instanceId: person.instanceId, password: "a new passphrase for them", mustChange: true, locale: "en" }))).toBe("accepted");
    const admin = await manager.console.users.get({ sub: adminId });
    expect(await outcome(manager.console.users.setPassword({ instanceId: admin.instanceId, password: "taken over by a manager", mustChange: false, locale: "en" }))).toBe("FORBIDDEN console.privileged_account");
    expect(await outcome(manager.console.otp.resetSecondFactor({ sub: ids.auditor, reason: "no" }))).toBe("FORBIDDEN console.privileged_account");
    expect(await outcome(manager.console.sessions.endAll({ sub: adminId }))).toBe("FORBIDDEN console.privileged_account");
    expect(await outcome(manager.console.users.setRoles({ sub: ids.manager, roles: ["admin"] }))).toBe("FORBIDDEN console.forbidden");
    // The administrator's password is as it was.
    expect((await callerFor(adminId).console.users.get({ sub: adminId })).instanceId).toBe(admin.instanceId);
  });

  it("refuses input with a NUL character as a 400, before any lookup", async () => {
    expect(await outcome(callerFor(ids.manager).console.users.setPassword({ instanceId: "a\u0000b", password: "whatever passphrase", mustChange: false, locale: "en" }))).toBe("BAD_REQUEST request.invalid_values");
    expect(await outcome(callerFor(adminId).console.users.get({ sub: "a\u0000b" }))).toBe("BAD_REQUEST request.invalid_values");
  });

  it("does not let a user manager's recovery link outlive what it relied on: a new console role, a new address, a new password", async () => {
    const manager = callerFor(ids.manager);
    const admin = callerFor(adminId);
    const hire = await manager.console.users.get({ sub: ids.hire });
    // The manager points the e-mail at themselves (the old address is told), sends a link there, and puts the e-mail back.
    await manager.console.users.update({ instanceId: hire.instanceId, attributes: { email: { value: "mallory@example.org", vrf: true } } });
    const told = (await listOutbox({ limit: 100 })).items.filter((m) => m.purpose === "notice.contact_changed").map((m) => m.recipient);
    expect(told).toEqual(expect.arrayContaining([`${ids.hire}@example.org`, "mallory@example.org"]));
    await manager.console.users.sendRecovery({ sub: ids.hire, channel: "email", locale: "en" });
    const planted = await linkTokenTo("mallory@example.org");
    expect(await inviteUsable(planted)).toBe(true);
    const current = await manager.console.users.get({ sub: ids.hire });
    await manager.console.users.update({ instanceId: current.instanceId, attributes: { email: { value: `${ids.hire}@example.org`, vrf: true } } });
    // The address it went to is no longer the account's: the link is dead.
    expect(await inviteUsable(planted)).toBe(false);
    expect(await useRecoveryInvite(planted, "mallory's chosen passphrase", "en", {})).toEqual({ ok: false, reason: "spent" });

    // A link to the right address, then the account becomes an administrator's: a manager's link no longer works.
    await manager.console.users.sendRecovery({ sub: ids.hire, channel: "email", locale: "en" });
    const second = await linkTokenTo(`${ids.hire}@example.org`);
    expect(await inviteUsable(second)).toBe(true);
    await admin.console.users.setRoles({ sub: ids.hire, roles: ["admin"] });
    expect(await useRecoveryInvite(second, "mallory's chosen passphrase", "en", {})).toEqual({ ok: false, reason: "spent" });

    // An administrator's link works; a password set after it was sent spends it.
    await admin.console.users.sendRecovery({ sub: ids.hire, channel: "email", locale: "en" });
    const third = await linkTokenTo(`${ids.hire}@example.org`);
    expect(await inviteUsable(third)).toBe(true);
    const now = await admin.console.users.get({ sub: ids.hire });
    await admin.console.users.setPassword({ instanceId: now.instanceId, password: "set by the administrator meanwhile", mustChange: false, locale: "en" });
    expect(await inviteUsable(third)).toBe(false);
    await admin.console.users.setRoles({ sub: ids.hire, roles: [] });
  });

  it("changes console roles, keeps the account's other roles, and records who did it", async () => {
    const admin = callerFor(adminId);
    expect(await admin.console.users.setRoles({ sub: ids.manager, roles: ["auditor"] })).toEqual(["auditor"]);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: ids.manager } })).roles.sort()).toEqual(["app-editor", "auditor"]);
    // The change holds at once: the next call is an auditor's.
    expect(await outcome(callerFor(ids.manager).console.sessions.endAll({ sub: ids.person }))).toBe("FORBIDDEN console.forbidden");
    const event = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { type: "user.roles_changed", subject: ids.manager } });
    expect(event.params).toEqual({ added: ["auditor"], removed: ["user_manager"], by: "console", admin: adminId });
    expect(await outcome(admin.console.users.setRoles({ sub: "nobody-here", roles: [] }))).toBe("NOT_FOUND user.not_found");
    expect(await outcome(admin.console.users.setRoles({ sub: ids.person, roles: ["root" as "admin"] }))).toBe("BAD_REQUEST");
  });

  it("keeps the last administrator's role, and of two administrators removing each other only one succeeds", async () => {
    const admin = callerFor(adminId);
    expect(await outcome(admin.console.users.setRoles({ sub: adminId, roles: ["auditor"] }))).toBe("CONFLICT console.last_admin");
    expect(await findActiveAdmin(adminId)).toMatchObject({ roles: ["admin"] });

    await admin.console.users.setRoles({ sub: ids.deputy, roles: ["admin"] });
    const deputy = callerFor(ids.deputy);
    const results = await Promise.all([admin.console.users.setRoles({ sub: ids.deputy, roles: [] }), deputy.console.users.setRoles({ sub: adminId, roles: [] })].map(outcome));
    expect(results.sort()).toEqual(["CONFLICT console.last_admin", "accepted"].sort());
    const admins = await t.db.prisma.user.findMany({ where: { roles: { has: "admin" } }, select: { id: true } });
    expect(admins).toHaveLength(1);
    // Put back for the other tests' sake: the remaining administrator gives the role back.
    const remaining = admins[0]!.id;
    await callerFor(remaining).console.users.setRoles({ sub: remaining === adminId ? ids.deputy : adminId, roles: ["admin"] });
  });

  it("does not let two administrators lock each other out, nor delete the last one", async () => {
    const admin = callerFor(adminId);
    const deputy = callerFor(ids.deputy);
    expect((await t.db.prisma.user.findMany({ where: { roles: { has: "admin" }, locked: false } })).length).toBe(2);
    const [a, d] = await Promise.all([admin.console.users.get({ sub: ids.deputy }), deputy.console.users.get({ sub: adminId })]);
    const results = await Promise.all([admin.console.users.setLocked({ instanceId: a.instanceId, locked: true }), deputy.console.users.setLocked({ instanceId: d.instanceId, locked: true })].map(outcome));
    expect(results.sort()).toEqual(["CONFLICT console.last_admin", "accepted"].sort());
    const active = await t.db.prisma.user.findMany({ where: { roles: { has: "admin" }, locked: false }, select: { id: true, instanceId: true } });
    expect(active).toHaveLength(1);
    // The one left cannot be deleted either (the REST API deletes through the same service).
    expect(await outcome(deleteAccount(active[0]!.instanceId, { actor: {} }))).toBe("console.last_admin");
    expect(await t.db.prisma.user.count({ where: { id: active[0]!.id } })).toBe(1);
  });
});
