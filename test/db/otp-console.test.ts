import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { bindGenerator } from "../../server/otp/otp.service.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const B32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const SEED = new Uint8Array(Buffer.from("12345678901234567890"));
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as { cause?: { code?: string; details?: { items?: { pos: string }[] } } });

describe.each(DB_KINDS)("OTP in the console on %s", (kind) => {
  let t: TTestDatabase;
  let admin: ReturnType<typeof appRouter.createCaller>;

  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ users: [{ sub: "console-otp" }] }, {});
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
    expect(await admin.console.otp.userState({ sub: "console-otp" })).toEqual({ generators: [], modes: { secondFactor: false, needPasswordChange: false, methodsLocked: [] } });
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
});
