import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRecentSignIn, requireRecentSignIn, secondsLeftForChanges } from "../../server/auth/recent-sign-in.ts";
import { ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { getConfig } from "../../server/config/config.ts";
import { inTransaction } from "../../server/db/index.ts";
import { AppError } from "../../server/errors/app-error.ts";
import { hashSecret, verifySecret } from "../../server/crypto/password-hash.ts";
import { findPasswordHash } from "../../server/users/users.repository.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { createAccount } from "../../server/users/users.service.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// The portal's step-up: sensitive changes need a sign-in (the ID token's auth_time, kept in the
// session) no older than IDP_REAUTH_MAX_AGE; the rest of the portal does not.

const PASSWORD = "step-up correct horse";

describe("the age check", () => {
  const maxAge = getConfig().reauthMaxAge;
  const at = (authTime: number | undefined) => ({ user: { id: "x" }, idp: { iat: authTime ?? 0, authTime }, expires: "2999-01-01T00:00:00Z" });
  const now = 1_800_000_000_000;

  it("accepts a sign-in up to IDP_REAUTH_MAX_AGE seconds old and refuses one a second older", () => {
    expect(maxAge).toBe(300);
    expect(isRecentSignIn(at(now / 1000), now)).toBe(true);
    expect(isRecentSignIn(at(now / 1000 - maxAge), now)).toBe(true);
    expect(isRecentSignIn(at(now / 1000 - maxAge - 1), now)).toBe(false);
    expect(secondsLeftForChanges(at(now / 1000 - 100), now)).toBe(maxAge - 100);
    expect(secondsLeftForChanges(at(now / 1000 - maxAge - 1), now)).toBe(0);
  });

  it("treats a session without auth_time (or none at all) as too old, with the registry's 403", () => {
    for (const session of [at(undefined), null, undefined]) {
      expect(isRecentSignIn(session, now)).toBe(false);
      expect(secondsLeftForChanges(session, now)).toBe(0);
    }
    const refusal = (() => {
      try {
        requireRecentSignIn(at(undefined), now);
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: "portal.reauth_required", status: 403 });
  });
});

describe.each(DB_KINDS)("sensitive portal changes on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinClients();
  });
  afterAll(async () => t?.close());

  let seq = 0;
  async function personSignedIn(signedInSecondsAgo: number) {
    const passwordHash = await hashSecret(PASSWORD);
    const sub = `stepup-${Date.now().toString(36)}${(seq++).toString(36)}`;
    const created = await inTransaction((tx) => createAccount({ attrs: { sub, email: { value: `${sub}@example.org`, vrf: true } }, passwordHash }, { contactFlag: "vrf", allowed: null }, tx));
    const session = await startSession({ userId: created.id, amr: ["pwd"], ip: "203.0.113.7", userAgent: "Firefox" });
    const portalSession = portalSessionOf(created.id, session.session.id, signedInSecondsAgo);
    const caller = appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "Firefox", deviceKey: session.deviceKey });
    return { id: created.id, caller };
  }

  const refusalOf = (p: Promise<unknown>) =>
    p.then(
      () => ({ code: "none", appCode: "none" }),
      (e: TRPCError) => ({ code: e.code, appCode: e.cause instanceof AppError ? e.cause.code : undefined }),
    );
  const REAUTH = { code: "FORBIDDEN", appCode: "portal.reauth_required" };

  it("refuses each sensitive change after IDP_REAUTH_MAX_AGE and changes nothing", async () => {
    const { id, caller } = await personSignedIn(getConfig().reauthMaxAge + 1);
    expect(await caller.portal.recentSignIn()).toEqual({ secondsLeft: 0 });
    expect(await refusalOf(caller.portal.password.change({ current: PASSWORD, password: "a fine new passphrase", locale: "en" }))).toEqual(REAUTH);
    expect(await verifySecret((await findPasswordHash(id))!, PASSWORD)).toBe(true);
    expect(await refusalOf(caller.portal.securityQuestion.set({ question: "Город детства?", answer: "Тверь" }))).toEqual(REAUTH);
    expect(await refusalOf(caller.portal.securityQuestion.remove())).toEqual(REAUTH);
    expect(await t.db.prisma.securityQuestion.count({ where: { userId: id } })).toBe(0);
    expect(await refusalOf(caller.portal.otp.start())).toEqual(REAUTH);
    expect(await refusalOf(caller.portal.otp.finish({ base32Secret: "JBSWY3DPEHPK3PXP", otpCode: "123456" }))).toEqual(REAUTH);
    expect(await refusalOf(caller.portal.otp.remove({ id: "x" }))).toEqual(REAUTH);
    expect(await refusalOf(caller.portal.otp.setSecondFactor({ on: false }))).toEqual(REAUTH);
    expect(await refusalOf(caller.portal.otp.renewBackupCodes())).toEqual(REAUTH);
    const profile = await caller.portal.profile.get();
    const contact = caller.portal.profile.startContactChange({ instanceId: profile.instanceId, attr: "email", value: "elsewhere@example.org", lang: "en" });
    expect(await refusalOf(contact)).toEqual(REAUTH);
    expect(await t.db.prisma.outboxMessage.count({ where: { recipient: "elsewhere@example.org" } })).toBe(0);
    // Reading, and what only takes access away, does not need a new sign-in.
    expect((await caller.portal.me()).sub).toBe(id);
    expect(await caller.portal.otp.state()).toEqual({ generators: [], secondFactor: false, backupCodes: { unused: 0, total: 0, createdAt: null } });
    expect(await caller.portal.consents.list()).toEqual(expect.anything());
  });

  it("lets a recent sign-in make the change, and tells how long it stays recent", async () => {
    const { id, caller } = await personSignedIn(10);
    const { secondsLeft } = await caller.portal.recentSignIn();
    expect(secondsLeft).toBeGreaterThanOrEqual(getConfig().reauthMaxAge - 12);
    expect(secondsLeft).toBeLessThanOrEqual(getConfig().reauthMaxAge - 10);
    await caller.portal.password.change({ current: PASSWORD, password: "a fine new passphrase", locale: "en" });
    expect(await verifySecret((await findPasswordHash(id))!, "a fine new passphrase")).toBe(true);
    await caller.portal.securityQuestion.set({ question: "Город детства?", answer: "Тверь" });
    expect(await caller.portal.securityQuestion.get()).toBe("Город детства?");
  });
});
