import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitToConsole } from "../../server/auth/console-admission.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin, findActiveAdmin } from "../../server/users/admin.service.ts";
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
  "console.groups.addMember", "console.groups.removeMember",
  "console.otp.removeGenerator", "console.otp.resetSecondFactor", "console.otp.setAuthModes",
  "console.providers.unbind",
  "console.sessions.endAll", "console.sessions.revokeConsent", "console.sessions.signOutDevice",
  "console.users.create", "console.users.delete", "console.users.sendRecovery", "console.users.setLocked", "console.users.setPassword", "console.users.update",
];
/** Queries only an administrator makes: a message's text can hold a code. */
const ADMIN_QUERIES = ["console.outbox.text"];

describe.each(DB_KINDS)("console roles on %s", (kind) => {
  let t: TTestDatabase;
  let adminId: string;
  const ids = { manager: `manager-${kind}`, auditor: `auditor-${kind}`, person: `person-${kind}`, deputy: `deputy-${kind}` };

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
    const forbidden = "FORBIDDEN console.forbidden";
    for (const { path, type } of PROCEDURES) {
      const reads = type === "query" && !ADMIN_QUERIES.includes(path);
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
});
