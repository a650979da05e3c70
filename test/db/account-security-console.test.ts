import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAccountUsable, recordSignedIn } from "../../server/account-state/account-state.service.ts";
import { setSecurityQuestionOf } from "../../server/security-question/security-question.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { createUser } from "../../server/users/users-console.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const DAY = 86_400;

describe.each(DB_KINDS)("an account's state, security question and properties in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: ReturnType<typeof appRouter.createCaller>;
  let adminId: string;
  const sub = `acctsec-${kind}`;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    admin = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
    await createUser({ attributes: { sub } }, { subject: adminId });
  });
  afterAll(async () => t?.close());

  const stateEvents = () => t.db.prisma.securityEvent.findMany({ where: { type: "user.state_changed", subject: sub }, orderBy: { id: "asc" }, select: { params: true, ip: true, userAgent: true } });

  it("shows state, whether a question is set, and the properties", async () => {
    expect(await admin.console.accountSecurity.get({ sub })).toEqual({ state: { name: "initial" }, securityQuestion: false, props: {}, inactivityLockDays: 0 });
    await setSecurityQuestionOf(sub, { question: "Q?", answer: "A" }, {});
    expect((await admin.console.accountSecurity.get({ sub })).securityQuestion).toBe(true);
    await expect(admin.console.accountSecurity.get({ sub: "nobody" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("unlocks an account locked for inactivity, and refuses to unlock one that is not", async () => {
    const now = Date.now();
    await recordSignedIn(sub, { now: new Date(now - 100 * DAY * 1000), periodS: 30 * DAY });
    expect(await checkAccountUsable(sub, { periodS: 30 * DAY })).toMatchObject({ ok: false, reason: "inactivityLock" });
    expect((await admin.console.accountSecurity.get({ sub })).state.name).toBe("inactivityLock");

    await admin.console.accountSecurity.unlock({ sub });
    expect((await admin.console.accountSecurity.get({ sub })).state).toMatchObject({ name: "active" });
    await expect(admin.console.accountSecurity.unlock({ sub })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const last = (await stateEvents()).at(-1)!;
    expect(last).toEqual({ params: { from: "inactivityLock", to: "active", reason: "unlocked", by: "console", admin: adminId }, ip: "203.0.113.9", userAgent: "AdminBrowser" });
  });

  it("makes the account untouchable until a date or for ever, and ends it", async () => {
    const till = Math.floor(Date.now() / 1000) + 30 * DAY;
    await admin.console.accountSecurity.setUntouchable({ sub, till });
    expect((await admin.console.accountSecurity.get({ sub })).state).toEqual({ name: "untouchable", till });
    await admin.console.accountSecurity.setUntouchable({ sub });
    expect((await admin.console.accountSecurity.get({ sub })).state).toEqual({ name: "untouchable" });
    await admin.console.accountSecurity.endUntouchable({ sub });
    expect((await admin.console.accountSecurity.get({ sub })).state.name).toBe("active");
    expect((await stateEvents()).slice(-3).map((e) => (e.params as { to: string }).to)).toEqual(["untouchable", "untouchable", "active"]);
  });

  it("edits the properties with the REST API's checks", async () => {
    expect(await admin.console.accountSecurity.changeProps({ sub, add: { plan: "pro", seats: 5, trial: false } })).toEqual({ plan: "pro", seats: 5, trial: false });
    expect(await admin.console.accountSecurity.changeProps({ sub, remove: ["trial"] })).toEqual({ plan: "pro", seats: 5 });
    const refused = await admin.console.accountSecurity.changeProps({ sub, add: { bad: { x: 1 }, nul: "a\u0000b" } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "BAD_REQUEST" });
    expect((await admin.console.accountSecurity.get({ sub })).props).toEqual({ plan: "pro", seats: 5 });
    const event = await t.db.prisma.securityEvent.findFirst({ where: { type: "user.props_changed", subject: sub }, orderBy: { id: "desc" }, select: { params: true } });
    expect(event?.params).toEqual({ added: [], removed: ["trial"], by: "console", admin: adminId });
  });
});
