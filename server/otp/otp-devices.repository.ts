import { getPrisma, type TTx } from "../db/index.ts";

export type TDeviceRow = { serial: string; kind: string; seed: string; algo: string; digits: number; counter: number | null; period: number | null; source: string; boundTo: string | null; loadedAt: Date };
export type TDeviceWrite = Omit<TDeviceRow, "boundTo" | "loadedAt">;

const DEVICE = { serial: true, kind: true, seed: true, algo: true, digits: true, counter: true, period: true, source: true, boundTo: true, loadedAt: true } as const;

const fromDb = (r: Omit<TDeviceRow, "counter"> & { counter: bigint | null }): TDeviceRow => ({ ...r, counter: r.counter === null ? null : Number(r.counter) });
const toDb = (r: TDeviceWrite) => ({ ...r, counter: r.counter === null ? null : BigInt(r.counter) });

export async function findDevicesBySerial(serials: string[], tx: TTx): Promise<TDeviceRow[]> {
  return (await tx.otpDevice.findMany({ where: { serial: { in: serials } }, select: DEVICE })).map(fromDb);
}

export async function createDevices(rows: TDeviceWrite[], tx: TTx): Promise<void> {
  if (rows.length) await tx.otpDevice.createMany({ data: rows.map(toDb) });
}

export async function updateDevice(row: TDeviceWrite, tx: TTx): Promise<void> {
  await tx.otpDevice.update({ where: { serial: row.serial }, data: { ...toDb(row), loadedAt: new Date() }, select: { serial: true } });
}

/** A device, locked for the rest of the transaction (binding reads, checks and moves its counter). */
export async function lockDevice(serial: string, tx: TTx): Promise<TDeviceRow | null> {
  const locked = await tx.$queryRaw<{ serial: string }[]>`SELECT serial FROM otp_devices WHERE serial = ${serial} FOR UPDATE`;
  if (!locked.length) return null;
  const row = await tx.otpDevice.findUnique({ where: { serial }, select: DEVICE });
  return row && fromDb(row);
}

export async function markDeviceBound(serial: string, userId: string, counter: number | null, tx: TTx): Promise<void> {
  await tx.otpDevice.update({ where: { serial }, data: { boundTo: userId, ...(counter !== null ? { counter: BigInt(counter) } : {}) }, select: { serial: true } });
}

export type TDeviceListRow = Omit<TDeviceRow, "seed">;

/** Loaded devices for the console, by serial, with whom each is bound to. */
export async function listDevices(opts: { search?: string; take: number; skip: number }): Promise<{ rows: TDeviceListRow[]; total: number }> {
  const prisma = await getPrisma();
  const where = opts.search ? { serial: { contains: opts.search, mode: "insensitive" as const } } : {};
  const { seed: _seed, ...select } = DEVICE;
  const [rows, total] = await Promise.all([
    prisma.otpDevice.findMany({ where, select, orderBy: { serial: "asc" }, take: opts.take, skip: opts.skip }),
    prisma.otpDevice.count({ where }),
  ]);
  return { rows: rows.map((r) => ({ ...r, counter: r.counter === null ? null : Number(r.counter) })), total };
}
