import { getPrisma, type TTx } from "../db/index.ts";

// Prisma for a directory's group mapping: the groups it made here, and its accounts found by DN.

export type TDirectoryGroup = { groupId: string; externalId: string; dn: string };

/** The groups the directory's mapping made here. */
export async function findDirectoryGroups(directoryId: string): Promise<TDirectoryGroup[]> {
  const prisma = await getPrisma();
  return prisma.directoryGroup.findMany({ where: { directoryId }, select: { groupId: true, externalId: true, dn: true }, orderBy: { groupId: "asc" } });
}

/** The group `groupId` is the directory's entry `externalId` (again, or now: a group made anew there under a known name). */
export async function saveDirectoryGroup(directoryId: string, g: TDirectoryGroup, tx: TTx): Promise<void> {
  const data = { directoryId, externalId: g.externalId, dn: g.dn, syncedAt: new Date() };
  await tx.directoryGroup.upsert({ where: { groupId: g.groupId }, create: { groupId: g.groupId, ...data }, update: data, select: { groupId: true } });
}

// Keys a statement looks up at most.
const CHUNK = 5_000;

/** The directory's accounts whose DNs are among `dnKeys` (lower-cased DNs): key → account id. */
export async function findAccountsByDn(directoryId: string, dnKeys: string[]): Promise<Map<string, string>> {
  const prisma = await getPrisma();
  const out = new Map<string, string>();
  for (let i = 0; i < dnKeys.length; i += CHUNK) {
    // lower(dn): the expression of the index directory_accounts_directory_id_lower_dn_idx. Two accounts may
    // have had one DN (an entry deleted, its name given to a newcomer): the one seen there last is it now.
    const rows = await prisma.$queryRaw<{ user_id: string; k: string }[]>`
      SELECT DISTINCT ON (lower(dn)) user_id, lower(dn) AS k FROM directory_accounts
      WHERE directory_id = ${directoryId} AND lower(dn) = ANY(${dnKeys.slice(i, i + CHUNK)}::text[])
      ORDER BY lower(dn), synced_at DESC`;
    for (const r of rows) out.set(r.k, r.user_id);
  }
  return out;
}
