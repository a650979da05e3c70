import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeAuthModes, clearNeedPasswordChange, readAuthModes } from "../../server/auth-modes/auth-modes.service.ts";
import { getPrisma } from "../../server/db/index.ts";
import type { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { codeAt, encodeBase32, timeStep } from "../../server/otp/otp-codes.ts";
import { runMaintenance } from "../../server/maintenance/maintenance.ts";
import { bindGenerator, bindPendingSecret, generatorsOf, issuePendingSecret, PENDING_TTL_MS, removeGenerator, verifySecondFactor } from "../../server/otp/otp.service.ts";
import { independentHotp, independentTotp } from "../support/independent-otp.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const SEED = new Uint8Array(Buffer.from("12345678901234567890", "ascii"));
const totpNow = (seed: Uint8Array = SEED, at = Date.now()) => codeAt({ seed, algo: "SHA1", digits: 6 }, timeStep(30, at));
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as AppError);

describe.each(DB_KINDS)("OTP generators and authentication modes on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ users: ["otp-a", "otp-b", "otp-c", "otp-d", "otp-e"].map((sub) => ({ sub })) }, {});
  });
  afterAll(async () => t?.close());

  it("keeps seeds sealed and accepts each TOTP code once, also under parallel requests", async () => {
    await bindGenerator("otp-a", { kind: "totp", prefix: "totp", name: "Phone", seed: SEED, algo: "SHA1", digits: 6, period: 30 }, {});
    const rows = await (await getPrisma()).otpGenerator.findMany({ where: { userId: "otp-a" }, select: { seed: true } });
    expect(rows[0]!.seed).toMatch(/^v2\./);
    expect(rows[0]!.seed).not.toContain(Buffer.from(SEED).toString("base64"));

    const code = totpNow();
    const results = await Promise.all(Array.from({ length: 8 }, () => verifySecondFactor("otp-a", code)));
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(results.filter((r) => r === "replay")).toHaveLength(7);
    expect(await verifySecondFactor("otp-a", code)).toBe("replay");
    // The previous step's code is within the window, but older than the step already used.
    expect(await verifySecondFactor("otp-a", totpNow(SEED, Date.now() - 30_000))).toBe("replay");
    expect(await verifySecondFactor("otp-a", "000000") === "ok").toBe(false);
    expect(await generatorsOf("otp-a")).toMatchObject([{ id: "totp_otp-a", len: 6, name: "Phone", kind: "totp" }]);
  });

  it("moves an HOTP counter past each accepted code and looks ahead", async () => {
    await bindGenerator("otp-b", { kind: "hotp", prefix: "hotp", name: "Token", seed: SEED, algo: "SHA1", digits: 6, counter: 1 }, {});
    expect(await verifySecondFactor("otp-b", "359152")).toBe("ok"); // counter 2: one press skipped
    expect(await verifySecondFactor("otp-b", "359152")).toBe("replay");
    expect(await verifySecondFactor("otp-b", "287082")).toBe("replay"); // counter 1, behind
    expect(await verifySecondFactor("otp-b", "969429")).toBe("ok");
    expect(await verifySecondFactor("otp-b", "520489")).toBe("ok"); // counter 9, within the look-ahead
    const [g] = await (await getPrisma()).otpGenerator.findMany({ where: { userId: "otp-b" }, select: { counter: true } });
    expect(g!.counter).toBe(10n);
  });

  it("accepts the codes oathtool computes for a SHA512 TOTP and a hex-seeded HOTP generator", async () => {
    const seed = new Uint8Array(Buffer.from("an 8-digit sha512 seed of 32 bytes", "ascii"));
    const base32 = encodeBase32(seed);
    await bindGenerator("otp-e", { kind: "totp", prefix: "totp", name: "T", seed, algo: "SHA512", digits: 8, period: 60 }, {});
    await bindGenerator("otp-e", { kind: "hotp", prefix: "hotp", name: "H", seed: SEED, algo: "SHA1", digits: 7, counter: 40 }, {});
    expect(await verifySecondFactor("otp-e", independentTotp(base32, { algo: "SHA512", digits: 8, period: 60 }))).toBe("ok");
    const [c40, c41, c42] = independentHotp(Buffer.from(SEED).toString("hex"), 40, 3, { hex: true, digits: 7 });
    expect(await verifySecondFactor("otp-e", c41!)).toBe("ok");
    expect(await verifySecondFactor("otp-e", c40!)).toBe("replay");
    expect(await verifySecondFactor("otp-e", c42!)).toBe("ok");
  });

  it("binds a QR secret only when this service handed it to this account", async () => {
    const seed = await issuePendingSecret("otp-c");
    expect((await failure(bindPendingSecret("otp-d", seed, totpNow(seed), { prefix: "totp", name: "x" }, {})))?.code).toBe("otp.unknown_secret");
    expect((await failure(bindPendingSecret("otp-c", SEED, totpNow(SEED), { prefix: "totp", name: "x" }, {})))?.code).toBe("otp.unknown_secret");
    expect((await failure(bindPendingSecret("otp-c", seed, "000000", { prefix: "totp", name: "x" }, {})))?.code).toBe("otp.wrong_code");
    const code = totpNow(seed);
    expect(await bindPendingSecret("otp-c", seed, code, { prefix: "totp", name: "Phone" }, {})).toBe("totp_otp-c");
    // The binding code cannot sign in, and the secret cannot be bound twice.
    expect(await verifySecondFactor("otp-c", code)).toBe("replay");
    expect((await failure(bindPendingSecret("otp-c", seed, code, { prefix: "totp2", name: "x" }, {})))?.code).toBe("otp.unknown_secret");

    // Secrets nobody bound expire: the hourly maintenance removes them, and they no longer bind.
    const late = await issuePendingSecret("otp-c");
    const later = new Date(Date.now() + PENDING_TTL_MS + 1000);
    expect((await runMaintenance(later)).otpPendingSecrets).toBe(1);
    expect((await failure(bindPendingSecret("otp-c", late, totpNow(late), { prefix: "totp3", name: "x" }, {})))?.code).toBe("otp.unknown_secret");
  });

  it("turns the second factor on only with a generator, and refuses to remove the last one while it is on", async () => {
    const err = await failure(changeAuthModes("otp-d", { requiredFactor: 2 }, {}));
    expect(err?.details.items).toEqual([expect.objectContaining({ error: "has_not_sf_methods", pos: "requiredFactor" })]);
    expect(await readAuthModes("otp-d")).toEqual({ secondFactor: false, needPasswordChange: false, methodsLocked: [] });

    await bindGenerator("otp-d", { kind: "totp", prefix: "totp", name: "Phone", seed: SEED, algo: "SHA1", digits: 6, period: 30 }, {});
    expect(await changeAuthModes("otp-d", { requiredFactor: 2, needPasswordChange: true, methodsLocked: ["password"] }, {})).toEqual({
      secondFactor: true, needPasswordChange: true, methodsLocked: ["password"],
    });
    expect((await failure(removeGenerator("otp-d", "totp_otp-d", {})))?.code).toBe("otp.last_second_factor");
    await clearNeedPasswordChange("otp-d");
    expect(await changeAuthModes("otp-d", { requiredFactor: null, methodsLocked: [] }, {})).toEqual({ secondFactor: false, needPasswordChange: false, methodsLocked: [] });
    await removeGenerator("otp-d", "totp_otp-d", {});
    expect(await generatorsOf("otp-d")).toEqual([]);
    expect((await failure(removeGenerator("otp-d", "totp_otp-d", {})))?.code).toBe("otp.not_found");
  });
});
