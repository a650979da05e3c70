import { getPrisma, inTransaction } from "../../db/index.ts";
import type { Prisma } from "../../db/generated/client.ts";

export type TSigningKeyRow = { kid: string; alg: string; publicJwk: unknown; privateKeyEnc: string; signsFrom: Date; retiredAt: Date | null };

// The namespace of the rotation's advisory lock ("skey"; the rights use "rght").
const ROTATION_LOCK = 0x736b6579;

const SELECT = { kid: true, alg: true, publicJwk: true, privateKeyEnc: true, signsFrom: true, retiredAt: true } as const;

/** Keys not retired, or retired after `since`: every key the schedule may still publish. */
export async function findLiveSigningKeys(since: Date): Promise<TSigningKeyRow[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
    orderBy: [{ signsFrom: "asc" }, { kid: "asc" }],
    select: SELECT,
  });
}

/** Whether some key has not been retired (a fresh database has none). */
export async function hasUnretiredSigningKey(): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.signingKey.count({ where: { retiredAt: null } })) > 0;
}

export async function insertSigningKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string }) {
  const prisma = await getPrisma();
  await prisma.signingKey.create({ data: row, select: { kid: true } });
}

/**
 * The rotation's one write: the new key, and every key not retired by `retireAt` retired then. In one
 * transaction, so no instance ever reads two keys both meant to sign on.
 */
export async function insertSuccessorKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string; signsFrom: Date }, retireAt: Date): Promise<string[]> {
  return inTransaction(async (tx) => {
    // Two rotations at once take turns: the second retires the first's new key too.
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${ROTATION_LOCK}::int, 0)`;
    // Keys in force, and keys retiring later than retireAt: after a compromise (retireAt in the past)
    // that is every key still published, whose private parts sat beside the compromised one.
    const where = { OR: [{ retiredAt: null }, { retiredAt: { gt: retireAt } }] };
    const retiring = await tx.signingKey.findMany({ where, select: { kid: true } });
    await tx.signingKey.updateMany({ where, data: { retiredAt: retireAt } });
    await tx.signingKey.create({ data: row, select: { kid: true } });
    return retiring.map((k) => k.kid);
  });
}

/** Every key for the console's list, newest first. */
export async function listSigningKeys(): Promise<(TSigningKeyRow & { createdAt: Date })[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({ orderBy: [{ signsFrom: "desc" }, { kid: "asc" }], select: { ...SELECT, createdAt: true } });
}
