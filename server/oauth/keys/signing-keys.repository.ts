import { getPrisma, inTransaction } from "../../db/index.ts";
import { insertSuccessor, type TKeyTable } from "../../db/key-succession.ts";
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
 * The rotation's one write, in one transaction (server/db/key-succession.ts): the new key signs
 * `aheadMs` from now and the keys in force retire then; `compromised` withdraws every published key now.
 */
export async function insertSuccessorKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string }, opts: { aheadMs: number; compromised: boolean }): Promise<{ signsFrom: Date; retired: string[] }> {
  return inTransaction((tx) => insertSuccessor(tx, tx.signingKey as unknown as TKeyTable, row, { ...opts, lockNamespace: ROTATION_LOCK, publishedForS: LONGEST_SIGNED_TOKEN_S }));
}

/** Every key for the console's list, newest first: what it does, never its private part. */
export async function listSigningKeys(): Promise<(Omit<TSigningKeyRow, "privateKeyEnc" | "publicJwk"> & { createdAt: Date })[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    orderBy: [{ signsFrom: "desc" }, { kid: "asc" }],
    select: { kid: true, alg: true, signsFrom: true, retiredAt: true, withdrawnAt: true, createdAt: true },
  });
}
