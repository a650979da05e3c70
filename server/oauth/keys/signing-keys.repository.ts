import { getPrisma, inTransaction } from "../../db/index.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { LONGEST_SIGNED_TOKEN_S } from "./key-schedule.ts";

export type TSigningKeyRow = { kid: string; alg: string; publicJwk: unknown; privateKeyEnc: string; signsFrom: Date; retiredAt: Date | null; withdrawnAt: Date | null };

// The namespace of the rotation's advisory lock ("skey"; the rights use "rght").
const ROTATION_LOCK = 0x736b6579;

const SELECT = { kid: true, alg: true, publicJwk: true, privateKeyEnc: true, signsFrom: true, retiredAt: true, withdrawnAt: true } as const;

/** Keys not retired, or retired after `since`: every key the schedule may still publish. */
export async function findLiveSigningKeys(since: Date): Promise<TSigningKeyRow[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    where: { withdrawnAt: null, OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
    orderBy: [{ signsFrom: "asc" }, { kid: "asc" }],
    select: SELECT,
  });
}

/** Whether some key has not been retired (a fresh database has none). */
export async function hasUnretiredSigningKey(): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.signingKey.count({ where: { retiredAt: null, withdrawnAt: null } })) > 0;
}

export async function insertSigningKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string }) {
  const prisma = await getPrisma();
  await prisma.signingKey.create({ data: row, select: { kid: true } });
}

/**
 * The rotation's one write, in one transaction and on the database's clock (the servers' clocks may
 * disagree; the times are stored once, from one clock). The new key signs `aheadMs` from now; every
 * key not retired by then retires then. `compromised`: every published key is withdrawn now and the
 * new key signs now. Returns the kids retired or withdrawn and when the new key signs.
 */
export async function insertSuccessorKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string }, opts: { aheadMs: number; compromised: boolean }): Promise<{ signsFrom: Date; retired: string[] }> {
  return inTransaction(async (tx) => {
    // Two rotations at once take turns: the second retires the first's new key too.
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${ROTATION_LOCK}::int, 0)`;
    const now = (await tx.$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
    const signsFrom = new Date(now.getTime() + (opts.compromised ? 0 : opts.aheadMs));
    // Compromised: every key still published. Else: keys in force, and keys retiring later than the
    // new one starts (a rotation not yet in effect).
    const after = opts.compromised ? new Date(now.getTime() - LONGEST_SIGNED_TOKEN_S * 1000) : signsFrom;
    const where = { withdrawnAt: null, OR: [{ retiredAt: null }, { retiredAt: { gt: after } }] };
    const retiring = await tx.signingKey.findMany({ where, select: { kid: true } });
    if (opts.compromised) {
      const kids = retiring.map((k) => k.kid);
      await tx.signingKey.updateMany({ where: { kid: { in: kids }, retiredAt: null }, data: { retiredAt: now } });
      await tx.signingKey.updateMany({ where: { kid: { in: kids } }, data: { withdrawnAt: now } });
    } else {
      await tx.signingKey.updateMany({ where, data: { retiredAt: signsFrom } });
    }
    await tx.signingKey.create({ data: { ...row, signsFrom }, select: { kid: true } });
    return { signsFrom, retired: retiring.map((k) => k.kid) };
  });
}

/** Every key for the console's list, newest first: what it does, never its private part. */
export async function listSigningKeys(): Promise<(Omit<TSigningKeyRow, "privateKeyEnc" | "publicJwk"> & { createdAt: Date })[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    orderBy: [{ signsFrom: "desc" }, { kid: "asc" }],
    select: { kid: true, alg: true, signsFrom: true, retiredAt: true, withdrawnAt: true, createdAt: true },
  });
}
