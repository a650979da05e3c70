import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import type { TTx } from "../db/index.ts";
import { parseDeviceFile, type TDeviceDef, type TDeviceFormat } from "./device-files.ts";
import { findConsecutive, timeStep, type TOtpAlgorithm, type TOtpKey } from "./otp-codes.ts";
import { createDevices, findDevicesBySerial, lockDevice, markDeviceBound, updateDevice, type TDeviceRow } from "./otp-devices.repository.ts";
import { sealSeed, unsealSeed } from "./otp-seeds.ts";
import { bindingId } from "./otp.service.ts";
import { lockAccount, saveGenerator } from "./otp.repository.ts";
import { inTransaction } from "../db/index.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";

export type TDeviceLoadSummary = { created: string[]; updated: string[]; unchanged: string[] };

const sameDevice = (d: TDeviceDef, row: TDeviceRow): boolean =>
  row.kind === d.kind && row.algo === d.algo && row.digits === d.digits && row.counter === (d.counter ?? null) && row.period === (d.period ?? null) &&
  Buffer.from(unsealSeed(row.seed)).equals(Buffer.from(d.seed));

/**
 * Stores devices of a file: new serials are created, free ones take the file's values, a device bound
 * to an account is left alone (its counter moved on with use; remove the binding to load it again)
 * and reported unchanged like one the file repeats as it is.
 */
export async function storeDevices(devices: TDeviceDef[], source: TDeviceFormat, tx: TTx): Promise<TDeviceLoadSummary> {
  const known = new Map((await findDevicesBySerial(devices.map((d) => d.serial), tx)).map((r) => [r.serial, r]));
  const toRow = (d: TDeviceDef) => ({ serial: d.serial, kind: d.kind, seed: sealSeed(d.seed), algo: d.algo, digits: d.digits, counter: d.counter ?? null, period: d.period ?? null, source });
  const summary: TDeviceLoadSummary = { created: [], updated: [], unchanged: [] };
  const fresh: TDeviceDef[] = [];
  for (const d of devices) {
    const row = known.get(d.serial);
    if (!row) fresh.push(d);
    else if (row.boundTo || sameDevice(d, row)) summary.unchanged.push(d.serial);
    else {
      await updateDevice(toRow(d), tx);
      summary.updated.push(d.serial);
    }
  }
  await createDevices(fresh.map(toRow), tx);
  summary.created = fresh.map((d) => d.serial);
  return summary;
}

/** A device file's devices, or import.invalid_document naming every mistake (at `pos`, prefixed). */
export function devicesOfFile(format: TDeviceFormat, content: string, posPrefix = ""): TDeviceDef[] {
  const { devices, errors } = parseDeviceFile(format, content);
  if (errors.length) {
    const items = errors.slice(0, 100).map((e) => ({ ...e, pos: [posPrefix, e.pos].filter(Boolean).join(" ") }));
    throw new AppError("import.invalid_document", { desc: "the device file has mistakes; nothing was loaded", items });
  }
  return devices;
}

/**
 * Loads a device description file (console upload). All or nothing: a file with any mistake loads
 * nothing and every mistake is named, so a corrected file can be loaded again as it is.
 */
export async function loadDeviceFile(format: TDeviceFormat, content: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TDeviceLoadSummary> {
  const devices = devicesOfFile(format, content);
  const summary = await inTransaction((tx) => storeDevices(devices, format, tx));
  await recordEvent("otp.devices_loaded", actor, { format, created: summary.created.length, updated: summary.updated.length, unchanged: summary.unchanged.length, ...note });
  return summary;
}

/** Where consecutive codes of a device start: from its counter (HOTP), or ending at about now (TOTP). */
function findCodes(device: TDeviceRow, codes: string[], nowMs: number): number | undefined {
  const key: TOtpKey = { seed: unsealSeed(device.seed), algo: device.algo as TOtpAlgorithm, digits: device.digits };
  if (device.kind === "hotp") return findConsecutive(key, codes, device.counter ?? 0);
  // A TOTP device shows one code a period: the last of the codes must be current (±1 step).
  const now = timeStep(device.period!, nowMs);
  return findConsecutive(key, codes, now - codes.length, 3);
}

/**
 * Binds a loaded hardware generator to an account when `codes` are consecutive codes of it (HOTP:
 * anywhere in the resynchronisation window ahead of its counter). Binding it again to the same
 * account resynchronises it. The device row is locked meanwhile, so two accounts cannot both take it.
 */
export async function bindDevice(userId: string, serial: string, codes: string[], actor: TEventActor, nowMs = Date.now()): Promise<string> {
  const { id, resync } = await inTransaction(async (tx) => {
    if (!(await lockAccount(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    const device = await lockDevice(serial, tx);
    if (!device) throw new AppError("otp.unknown_device", { params: { serial } });
    if (device.boundTo && device.boundTo !== userId) throw new AppError("otp.device_bound", { params: { serial } });
    const first = findCodes(device, codes, nowMs);
    if (first === undefined) throw new AppError("otp.wrong_code", { desc: "the codes are not consecutive codes of this generator" });
    const next = first + codes.length;
    const id = bindingId(`hw-${serial}`, userId);
    await saveGenerator(
      {
        id, userId, kind: device.kind as "hotp" | "totp", name: `Hardware token ${serial}`, seed: device.seed, algo: device.algo, digits: device.digits,
        period: device.period, counter: device.kind === "hotp" ? next : null, lastStep: device.kind === "totp" ? next - 1 : null, deviceSerial: serial,
      },
      tx,
    );
    await markDeviceBound(serial, userId, device.kind === "hotp" ? next : null, tx);
    return { id, resync: device.boundTo === userId };
  });
  await recordEvent(resync ? "user.otp_resynchronised" : "user.otp_bound", { ...actor, subject: userId }, { generator: id, kind: "hardware", serial });
  if (!resync) await tellAccountHolderOf(userId, { kind: "factor_added", actor, detail: `Hardware token ${serial}` });
  return id;
}
