import type { TTx } from "./index.ts";

/*
 * The rotation's one write, shared by the two tables of scheduled keys (the token keys and the SAML
 * keys), which differ only in what a row carries besides its schedule.
 */

/** What the rotation needs of a key table's Prisma delegate (each delegate is cast to it: their row types differ, the calls do not). */
export type TKeyTable = {
  findMany(args: { where: object; select: { kid: true } }): Promise<{ kid: string }[]>;
  updateMany(args: { where: object; data: object }): Promise<unknown>;
  create(args: { data: object; select: { kid: true } }): Promise<unknown>;
};

export type TSuccession = { aheadMs: number; compromised: boolean; lockNamespace: number; publishedForS: number };

/**
 * Inserts `row` as the next key, on the database's clock (the servers' clocks may disagree; the
 * times are stored once, from one clock). The new key signs `aheadMs` from now; every key not retired
 * by then retires then. `compromised`: every published key is withdrawn now and the new key signs
 * now. Returns the kids retired or withdrawn and when the new key signs. Run inside a transaction.
 */
export async function insertSuccessor(tx: TTx, table: TKeyTable, row: object, opts: TSuccession): Promise<{ signsFrom: Date; retired: string[] }> {
  // Two rotations at once take turns: the second retires the first's new key too.
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${opts.lockNamespace}::int, 0)`;
  const now = (await tx.$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
  const signsFrom = new Date(now.getTime() + (opts.compromised ? 0 : opts.aheadMs));
  // Compromised: every key still published. Else: keys in force, and keys retiring later than the
  // new one starts (a rotation not yet in effect).
  const after = opts.compromised ? new Date(now.getTime() - opts.publishedForS * 1000) : signsFrom;
  const where = { withdrawnAt: null, OR: [{ retiredAt: null }, { retiredAt: { gt: after } }] };
  const retiring = await table.findMany({ where, select: { kid: true } });
  if (opts.compromised) {
    const kids = retiring.map((k) => k.kid);
    await table.updateMany({ where: { kid: { in: kids }, retiredAt: null }, data: { retiredAt: now } });
    await table.updateMany({ where: { kid: { in: kids } }, data: { withdrawnAt: now } });
  } else {
    await table.updateMany({ where, data: { retiredAt: signsFrom } });
  }
  await table.create({ data: { ...row, signsFrom }, select: { kid: true } });
  return { signsFrom, retired: retiring.map((k) => k.kid) };
}
