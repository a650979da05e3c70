import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSecurityAnswerOf } from "../../server/security-question/security-question.service.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The portal's security question page: the signed-in person's own question, over the rules of …/secQsn.

describe.each(DB_KINDS)("the portal's security question on %s", (kind) => {
  let t: TTestDatabase;
  const sub = `portal-secqsn-${kind}`;
  let me: ReturnType<typeof appRouter.createCaller>;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await t.db.prisma.user.create({ data: { id: sub, instanceId: `${sub}.x` }, select: { id: true } });
    const session = await startSession({ userId: sub, amr: ["pwd"], ip: "203.0.113.7", userAgent: "PortalBrowser" });
    const portalSession = portalSessionOf(sub, session.session.id);
    me = appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "PortalBrowser", deviceKey: session.deviceKey });
  });
  afterAll(async () => t?.close());

  it("sets, changes and deletes the person's own question; the answer is only ever checked", async () => {
    expect(await me.portal.securityQuestion.get()).toBeNull();
    await me.portal.securityQuestion.set({ question: "  Любимый цвет?  ", answer: "Зелёный" });
    expect(await me.portal.securityQuestion.get()).toBe("Любимый цвет?");
    await expect(checkSecurityAnswerOf(sub, { question: "Любимый цвет?", answer: "ЗЕЛЕНЫЙ" }, {})).resolves.toBeUndefined();

    await me.portal.securityQuestion.set({ question: "Город детства?", answer: "Тверь" });
    expect(await me.portal.securityQuestion.get()).toBe("Город детства?");
    await expect(me.portal.securityQuestion.set({ question: "", answer: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    await me.portal.securityQuestion.remove();
    expect(await me.portal.securityQuestion.get()).toBeNull();
    await expect(me.portal.securityQuestion.remove()).rejects.toMatchObject({ code: "NOT_FOUND" });

    const events = await t.db.prisma.securityEvent.findMany({ where: { subject: sub, type: { startsWith: "user.security_question" } }, select: { type: true, ip: true, clientId: true } });
    expect(events.map((e) => e.type)).toEqual(["user.security_question_set", "user.security_question_set", "user.security_question_deleted"]);
    expect(events[0]).toMatchObject({ ip: "203.0.113.7", clientId: "idp-portal" });
  });

  it("refuses a caller who is not signed in", async () => {
    const anonymous = appRouter.createCaller({ session: null, portalSession: null });
    await expect(anonymous.portal.securityQuestion.get()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
