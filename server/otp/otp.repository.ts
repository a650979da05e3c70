import { getPrisma, type TTx } from "../db/index.ts";

export type TGeneratorRow = {
  id: string;
  userId: string;
  kind: "totp" | "hotp";
  name: string;
  seed: string;
  algo: string;
  digits: number;
  period: number | null;
  counter: number | null;
  lastStep: number | null;
  deviceSerial: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
};

const GENERATOR = {
  id: true, userId: true, kind: true, name: true, seed: true, algo: true, digits: true, period: true,
  counter: true, lastStep: true, deviceSerial: true, createdAt: true, lastUsedAt: true,
} as const;

type TRawGenerator = Omit<TGeneratorRow, "counter" | "lastStep" | "kind"> & { kind: string; counter: bigint | null; lastStep: bigint | null };

function toRow(r: TRawGenerator): TGeneratorRow {
  return {
    ...r,
    kind: r.kind as TGeneratorRow["kind"],
    counter: r.counter === null ? null : Number(r.counter),
    lastStep: r.lastStep === null ? null : Number(r.lastStep),
  };
}

const big = (n: number | null | undefined) => (n === null || n === undefined ? null : BigInt(n));

/** The account's generators, oldest first (the order GET …/totps lists them). */
export async function findGeneratorsOf(userId: string, tx?: TTx): Promise<TGeneratorRow[]> {
  const db = tx ?? (await getPrisma());
  const rows = await db.otpGenerator.findMany({ where: { userId }, select: GENERATOR, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toRow);
}

export type TGeneratorWrite = Omit<TGeneratorRow, "createdAt" | "lastUsedAt">;

/** Binds a generator under its id; one bound before under the same id (re-enrolment) is replaced. */
export async function saveGenerator(row: TGeneratorWrite, tx: TTx): Promise<"created" | "replaced"> {
  const data = { ...row, counter: big(row.counter), lastStep: big(row.lastStep) };
  const existed = await tx.otpGenerator.findUnique({ where: { id: row.id }, select: { id: true } });
  if (existed) {
    await tx.otpGenerator.update({ where: { id: row.id }, data: { ...data, createdAt: new Date(), lastUsedAt: null }, select: { id: true } });
    return "replaced";
  }
  await tx.otpGenerator.create({ data, select: { id: true } });
  return "created";
}

export async function deleteGenerator(userId: string, id: string, tx: TTx): Promise<TGeneratorRow | null> {
  const row = await tx.otpGenerator.findFirst({ where: { id, userId }, select: GENERATOR });
  if (!row) return null;
  await tx.otpGenerator.delete({ where: { id }, select: { id: true } });
  // A hardware generator becomes free to bind again, at the counter its codes have reached.
  if (row.deviceSerial) await tx.otpDevice.updateMany({ where: { serial: row.deviceSerial }, data: { boundTo: null, ...(row.counter !== null ? { counter: row.counter } : {}) } });
  return toRow(row);
}

export async function countGeneratorsOf(userId: string, tx?: TTx): Promise<number> {
  const db = tx ?? (await getPrisma());
  return db.otpGenerator.count({ where: { userId } });
}

/**
 * Takes a TOTP step: succeeds only when no code of this step or a later one was accepted before.
 * The condition is the lock, so of parallel requests with one code exactly one succeeds.
 */
export async function acceptTotpStep(id: string, step: number, at: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.otpGenerator.updateMany({
    where: { id, kind: "totp", OR: [{ lastStep: null }, { lastStep: { lt: BigInt(step) } }] },
    data: { lastStep: BigInt(step), lastUsedAt: at },
  });
  return count === 1;
}

/** Moves an HOTP counter from `from` to `to`; fails when another request moved it first. */
export async function advanceHotpCounter(id: string, from: number, to: number, at: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.otpGenerator.updateMany({ where: { id, kind: "hotp", counter: BigInt(from) }, data: { counter: BigInt(to), lastUsedAt: at } });
  return count === 1;
}

/** Serialises changes that must see the account's generators and modes together (the last generator, requiredFactor 2). */
export async function lockAccount(userId: string, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
  return rows.length === 1;
}

