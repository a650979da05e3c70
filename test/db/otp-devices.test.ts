import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPrisma } from "../../server/db/index.ts";
import type { AppError } from "../../server/errors/app-error.ts";
import { importDocument } from "../../server/import/import.service.ts";
import { bindDevice, loadDeviceFile } from "../../server/otp/otp-devices.service.ts";
import { generatorsOf, removeGenerator, verifySecondFactor } from "../../server/otp/otp.service.ts";
import { independentHotp, independentTotp } from "../support/independent-otp.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

const FIXTURES = path.join(process.cwd(), "test", "fixtures", "otp");
const HEX = Buffer.from("12345678901234567890").toString("hex");
const B32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as AppError);

describe.each(DB_KINDS)("hardware generators from device files on %s", (kind) => {
  let t: TTestDatabase;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
  });
  afterAll(async () => t?.close());

  it("loads the RFC 6030 sample and a CSV through the import document, sealed, and a second import changes nothing", async () => {
    const doc = {
      users: [{ sub: "hw-a" }, { sub: "hw-b" }],
      otpDevices: [{ format: "pskc", file: "rfc6030-figure3.pskc.xml" }, { format: "csv", content: `serial,secret,algo,len,counter\nCSV-1,hex:${HEX},SHA1,6,100\nCSV-T,${B32},SHA256,8,30s` }],
    };
    expect((await importDocument(doc, {}, FIXTURES)).otpDevices).toEqual({ created: ["987654321", "CSV-1", "CSV-T"], updated: [], unchanged: [] });
    expect((await importDocument(doc, {}, FIXTURES)).otpDevices).toEqual({ created: [], updated: [], unchanged: ["987654321", "CSV-1", "CSV-T"] });
    const rows = await (await getPrisma()).otpDevice.findMany({ select: { seed: true } });
    expect(rows.every((r) => r.seed.startsWith("v2.") && !r.seed.includes("MTIzNDU2"))).toBe(true);

    const bad = await failure(importDocument({ otpDevices: [{ format: "csv", content: "X,notbase32!,SHA1,6,0" }] }, {}));
    expect(bad?.details.items).toEqual([expect.objectContaining({ pos: "$.otpDevices[0] line 1" })]);
  });

  it("binds a device on three consecutive codes another implementation computes, resynchronises, and keeps it from other accounts", async () => {
    // RFC 6030's sample: 8 digits, counter 0; the user pressed the button 50 times before.
    const [c1, c2, c3, c4] = independentHotp(HEX, 50, 4, { hex: true, digits: 8 });
    expect((await failure(bindDevice("hw-a", "987654321", [c1!, c3!, c4!], {})))?.code).toBe("otp.wrong_code");
    expect((await failure(bindDevice("hw-a", "nope", [c1!, c2!, c3!], {})))?.code).toBe("otp.unknown_device");
    expect(await bindDevice("hw-a", "987654321", [c1!, c2!, c3!], {})).toBe("hw-987654321_hw-a");
    expect(await generatorsOf("hw-a")).toMatchObject([{ id: "hw-987654321_hw-a", len: 8, kind: "hotp", serial: "987654321" }]);
    expect(await verifySecondFactor("hw-a", c3!)).toBe("replay");
    expect(await verifySecondFactor("hw-a", c4!)).toBe("ok");
    expect((await failure(bindDevice("hw-b", "987654321", independentHotp(HEX, 60, 3, { hex: true, digits: 8 }), {})))?.code).toBe("otp.device_bound");

    // The token drifted 200 presses ahead, beyond the sign-in look-ahead: binding again resynchronises.
    const far = independentHotp(HEX, 260, 4, { hex: true, digits: 8 });
    expect(await verifySecondFactor("hw-a", far[0]!)).toBe("wrong");
    await bindDevice("hw-a", "987654321", far.slice(0, 3), {});
    expect(await verifySecondFactor("hw-a", far[3]!)).toBe("ok");

    // Removing the binding frees the device, at the counter it reached.
    await removeGenerator("hw-a", "hw-987654321_hw-a", {});
    expect(await bindDevice("hw-b", "987654321", independentHotp(HEX, 264, 3, { hex: true, digits: 8 }), {})).toBe("hw-987654321_hw-b");
  });

  it("binds a TOTP device when the last of three consecutive codes is current", async () => {
    const now = Date.now();
    const codes = [-60_000, -30_000, 0].map((d) => independentTotp(B32, { algo: "SHA256", digits: 8, at: new Date(now + d) }));
    expect((await failure(bindDevice("hw-a", "CSV-T", [codes[0]!, codes[0]!, codes[2]!], {}, now)))?.code).toBe("otp.wrong_code");
    await bindDevice("hw-a", "CSV-T", codes, {}, now);
    expect(await verifySecondFactor("hw-a", codes[2]!)).toBe("replay");
  });

  it("lets exactly one of two accounts binding the same device in parallel have it", async () => {
    await loadDeviceFile("csv", `RACE-1,hex:${HEX},SHA1,6,0`, {});
    const codes = independentHotp(HEX, 5, 3, { hex: true });
    const results = await Promise.all(["hw-a", "hw-b"].map((sub) => bindDevice(sub, "RACE-1", codes, {}).then(() => "bound", (e: AppError) => e.code)));
    expect(results.sort()).toEqual(["bound", "otp.device_bound"]);
    const device = await (await getPrisma()).otpDevice.findUniqueOrThrow({ where: { serial: "RACE-1" }, select: { boundTo: true, counter: true } });
    expect(device.counter).toBe(8n);
    expect(await (await getPrisma()).otpGenerator.count({ where: { deviceSerial: "RACE-1" } })).toBe(1);
  });

  it("loads through the console's function all or nothing", async () => {
    const bad = await failure(loadDeviceFile("csv", `OK-1,${B32},SHA1,6,0\nBAD,${B32},SHA1,6`, {}));
    expect(bad?.details.items).toEqual([expect.objectContaining({ pos: "line 2" })]);
    expect(await (await getPrisma()).otpDevice.count({ where: { serial: "OK-1" } })).toBe(0);
    expect(await loadDeviceFile("csv", `OK-1,${B32},SHA1,6,0`, {})).toEqual({ created: ["OK-1"], updated: [], unchanged: [] });
  });
});
