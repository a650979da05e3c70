import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { listOutbox, readMessageText } from "../../server/messaging/outbox.service.ts";
import { createBackupCodes } from "../../server/backup-codes/backup-codes.service.ts";
import { bindGenerator, verifySecondFactor } from "../../server/otp/otp.service.ts";
import { checkSecondFactorAtSignIn } from "../../server/sign-in/account-checks.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const B32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const SEED = new Uint8Array(Buffer.from("12345678901234567890"));
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as { code?: string; cause?: { code?: string; details?: { items?: { pos: string }[] } } });

describe.each(DB_KINDS)("OTP in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: ReturnType<typeof appRouter.createCaller>;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ users: [{ sub: "console-otp" }, { sub: "lost-phone", attributes: { email: { value: "lost@example.test", vrf: true } } }] }, {});
    await bootstrapAdmin({ password: "admin-password-1", embedded: true });
    const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    admin = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip: "203.0.113.9", userAgent: "AdminBrowser" });
  });
  afterAll(async () => t?.close());

  it("uploads a device file all or nothing and lists the devices without seeds", async () => {
    const bad = await failure(admin.console.otp.loadDevices({ format: "csv", content: `C-1,${B32},SHA1,6,0\nC-2,${B32},SHA1,99,0` }));
    expect(bad?.cause?.code).toBe("import.invalid_document");
    expect(bad?.cause?.details?.items?.map((i) => i.pos)).toEqual(["line 2"]);
    expect(await admin.console.otp.loadDevices({ format: "csv", content: `C-1,${B32},SHA1,6,0\nC-2,${B32},SHA1,8,60s` })).toEqual({ created: ["C-1", "C-2"], updated: [], unchanged: [] });
    const page = await admin.console.otp.devices({ search: "c-", page: 0 });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => [r.serial, r.kind, r.boundTo])).toEqual([["C-1", "hotp", null], ["C-2", "totp", null]]);
    expect(JSON.stringify(page)).not.toContain("v2.");
    const events = await t.db.prisma.securityEvent.findMany({ where: { type: "otp.devices_loaded" } });
    expect(events.map((e) => e.params)).toEqual([expect.objectContaining({ format: "csv", created: 2, by: "console" })]);
  });

  it("shows a user's generators and modes, and changes them as the administrator", async () => {
    expect(await admin.console.otp.userState({ sub: "console-otp" })).toEqual({
      generators: [],
      modes: { secondFactor: false, needPasswordChange: false, methodsLocked: [] },
      backupCodes: { unused: 0, total: 0, createdAt: null },
    });
    expect((await failure(admin.console.otp.setAuthModes({ sub: "console-otp", requiredFactor: 2 })))?.cause?.code).toBe("auth_modes.no_second_factor_method");
    await bindGenerator("console-otp", { kind: "totp", prefix: "totp", name: "Phone", seed: SEED, algo: "SHA1", digits: 6, period: 30 }, {});
    expect((await admin.console.otp.setAuthModes({ sub: "console-otp", requiredFactor: 2 })).secondFactor).toBe(true);
    const state = await admin.console.otp.userState({ sub: "console-otp" });
    expect(state.generators).toMatchObject([{ id: "totp_console-otp", name: "Phone", len: 6, kind: "totp" }]);
    expect((await failure(admin.console.otp.removeGenerator({ sub: "console-otp", id: "totp_console-otp" })))?.cause?.code).toBe("otp.last_second_factor");
    await admin.console.otp.setAuthModes({ sub: "console-otp", requiredFactor: null });
    await admin.console.otp.removeGenerator({ sub: "console-otp", id: "totp_console-otp" });
    const removed = await t.db.prisma.securityEvent.findFirst({ where: { type: "user.otp_removed", subject: "console-otp" } });
    expect(removed?.params).toMatchObject({ by: "console" });
  });

  it("resets a lost second factor: generators and backup codes gone, the factor off, the reason in the event, the person told", async () => {
    const sub = "lost-phone";
    await bindGenerator(sub, { kind: "totp", prefix: "totp", name: "Old phone", seed: SEED, algo: "SHA1", digits: 6, period: 30 }, {});
    await admin.console.otp.setAuthModes({ sub, requiredFactor: 2 });
    const codes = await createBackupCodes(sub, {});
    expect(await checkSecondFactorAtSignIn(sub, codes[0]!, { ip: "198.51.100.4" })).toEqual({ ok: true });
    expect((await admin.console.otp.userState({ sub })).backupCodes).toMatchObject({ unused: 9, total: 10 });

    // Without a reason, or with one that could not be recorded, nothing happens.
    expect(await failure(admin.console.otp.resetSecondFactor({ sub, reason: "  " }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await failure(admin.console.otp.resetSecondFactor({ sub, reason: "lost\u0000phone" }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await failure(admin.console.otp.resetSecondFactor({ sub, reason: "lost\u0007phone" }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await admin.console.otp.userState({ sub })).toMatchObject({ generators: [{ name: "Old phone" }], backupCodes: { unused: 9 } });
    expect((await admin.console.otp.userState({ sub })).modes.secondFactor).toBe(true);
    expect((await failure(admin.console.otp.resetSecondFactor({ sub: "nobody-here", reason: "ticket 7" })))?.cause?.code).toBe("user.not_found");

    expect(await admin.console.otp.resetSecondFactor({ sub, reason: "ticket 4711: phone lost" })).toEqual({ generators: 1, backups: 10 });
    const state = await admin.console.otp.userState({ sub });
    expect(state).toMatchObject({ generators: [], modes: { secondFactor: false }, backupCodes: { unused: 0, total: 0 } });
    expect(await checkSecondFactorAtSignIn(sub, codes[1]!, { ip: "198.51.100.4" })).toEqual({ ok: false, reason: "wrong" });
    expect(await verifySecondFactor(sub, "123456")).toBe("wrong");

    const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
    const event = await t.db.prisma.securityEvent.findFirstOrThrow({ where: { type: "user.second_factor_reset", subject: sub } });
    expect(event.params).toEqual({ reason: "ticket 4711: phone lost", generators: 1, backups: 10, by: "console", admin: adminId });
    expect(event.ip).toBe("203.0.113.9");
    // One message about the reset (not a second one about the factor turned off), and the reason not in it.
    const told = (await listOutbox({ limit: 50 })).items.filter((m) => m.recipient === "lost@example.test");
    expect(told.map((m) => m.purpose).sort()).toEqual(["notice.backup_code_used", "notice.backup_codes_new", "notice.factor_added", "notice.second_factor_reset"]);
    const text = (await readMessageText(told.find((m) => m.purpose === "notice.second_factor_reset")!.id, {})).text;
    expect(text).toContain("Администратор сбросил вход с кодом подтверждения");
    expect(text).not.toContain("4711");
  });
});
