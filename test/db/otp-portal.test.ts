import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltinClients } from "../../server/clients/builtin-clients.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { codeAt, decodeBase32, timeStep } from "../../server/otp/otp-codes.ts";
import { verifySecondFactor } from "../../server/otp/otp.service.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { portalSessionOf } from "../support/portal-session.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const appCode = (p: Promise<unknown>) => p.then(() => undefined, (e: { cause?: { code?: string } }) => e.cause?.code);

describe.each(DB_KINDS)("the portal's two-factor page on %s", (kind) => {
  let t: TTestDatabase;
  let caller: ReturnType<typeof appRouter.createCaller>;
  const sub = "portal-otp";

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await ensureBuiltinClients();
    await importDocument({ users: [{ sub }] }, {});
    const session = await startSession({ userId: sub, amr: ["pwd"], ip: "203.0.113.7", userAgent: "Firefox" });
    const portalSession = portalSessionOf(sub, session.session.id);
    caller = appRouter.createCaller({ session: null, portalSession, ip: "203.0.113.7", userAgent: "Firefox", deviceKey: session.deviceKey });
  });
  afterAll(async () => t?.close());

  it("binds an authenticator app by QR code, turns the second factor on and off, and removes the app", async () => {
    const none = { unused: 0, total: 0, createdAt: null };
    expect(await caller.portal.otp.state()).toEqual({ generators: [], secondFactor: false, backupCodes: none });
    expect(await appCode(caller.portal.otp.setSecondFactor({ on: true }))).toBe("auth_modes.no_second_factor_method");

    const started = await caller.portal.otp.start();
    expect(started.otpauthUri).toMatch(new RegExp(`^otpauth://totp/[^?]+:${sub}\\?.*secret=${started.base32Secret}`));
    expect(await appCode(caller.portal.otp.finish({ base32Secret: started.base32Secret, otpCode: "000000" }))).toBe("otp.wrong_code");
    const code = codeAt({ seed: decodeBase32(started.base32Secret)!, algo: "SHA1", digits: 6 }, timeStep(30, Date.now()));
    await caller.portal.otp.finish({ base32Secret: started.base32Secret, otpCode: code, name: "Pixel" });
    expect(await verifySecondFactor(sub, code)).toBe("replay");

    const turnedOn = await caller.portal.otp.setSecondFactor({ on: true });
    expect(turnedOn.secondFactor).toBe(true);
    expect(turnedOn.backupCodes).toHaveLength(10);
    // Asked again while on: nothing changes, and no new set replaces the one just shown.
    expect(await caller.portal.otp.setSecondFactor({ on: true })).toEqual({ secondFactor: true });
    const state = await caller.portal.otp.state();
    expect(state).toMatchObject({ secondFactor: true, generators: [{ id: `totp_${sub}`, name: "Pixel", kind: "totp", len: 6 }], backupCodes: { unused: 10, total: 10 } });
    expect(await appCode(caller.portal.otp.remove({ id: `totp_${sub}` }))).toBe("otp.last_second_factor");
    expect(await caller.portal.otp.setSecondFactor({ on: false })).toEqual({ secondFactor: false });
    // The set goes with the factor: turned on again elsewhere (the API, an administrator), old codes do not sign in.
    expect((await caller.portal.otp.state()).backupCodes).toEqual({ unused: 0, total: 0, createdAt: null });
    await caller.portal.otp.remove({ id: `totp_${sub}` });
    const events = await t.db.prisma.securityEvent.findMany({ where: { subject: sub, type: { startsWith: "user." } }, select: { type: true, clientId: true } });
    expect(events.map((e) => e.type)).toEqual(["user.otp_bound", "user.auth_modes_changed", "user.backup_codes_created", "user.auth_modes_changed", "user.otp_removed"]);
    expect(events.every((e) => e.clientId === "idp-portal")).toBe(true);
  });
});
