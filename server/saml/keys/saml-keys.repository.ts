import { getPrisma, inTransaction } from "../../db/index.ts";
import { insertSuccessor, type TKeyTable } from "../../db/key-succession.ts";

export type TSamlKeyRow = { kid: string; certificatePem: string; privateKeyEnc: string; signsFrom: Date; retiredAt: Date | null; withdrawnAt: Date | null };

// The namespace of the SAML rotation's advisory lock ("samk").
const ROTATION_LOCK = 0x73616d6b;
const SELECT = { kid: true, certificatePem: true, privateKeyEnc: true, signsFrom: true, retiredAt: true, withdrawnAt: true } as const;

/** Keys not retired, or retired after `since`: every key the schedule may still publish. */
export async function findLiveSamlKeys(since: Date): Promise<TSamlKeyRow[]> {
  const prisma = await getPrisma();
  return prisma.samlSigningKey.findMany({
    where: { withdrawnAt: null, OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
    orderBy: [{ signsFrom: "asc" }, { kid: "asc" }],
    select: SELECT,
  });
}

/** Inserts `row` unless some key is in force already (another instance made the first key meanwhile). */
export async function insertFirstSamlKey(row: { kid: string; certificatePem: string; privateKeyEnc: string }): Promise<void> {
  await inTransaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${ROTATION_LOCK}::int, 0)`;
    if (await tx.samlSigningKey.count({ where: { retiredAt: null, withdrawnAt: null } })) return;
    await tx.samlSigningKey.create({ data: row, select: { kid: true } });
  });
}

/** The rotation's one write (server/db/key-succession.ts). */
export async function insertSuccessorSamlKey(row: { kid: string; certificatePem: string; privateKeyEnc: string }, opts: { aheadMs: number; compromised: boolean; publishedForS: number }) {
  return inTransaction((tx) => insertSuccessor(tx, tx.samlSigningKey as unknown as TKeyTable, row, { ...opts, lockNamespace: ROTATION_LOCK }));
}

/** Every key for the console's list, newest first, without its private part. */
export async function listSamlKeys() {
  const prisma = await getPrisma();
  return prisma.samlSigningKey.findMany({
    orderBy: [{ signsFrom: "desc" }, { kid: "asc" }],
    select: { kid: true, certificatePem: true, signsFrom: true, retiredAt: true, withdrawnAt: true, createdAt: true },
  });
}
