import { getPrisma, type TTx } from "../db/index.ts";
import { Prisma } from "../db/generated/client.ts";
import type { TDirectoryAttributeRule, TDirectoryGroups } from "./directory.schemas.ts";

export type TDirectory = {
  id: string;
  name: string;
  enabled: boolean;
  url: string;
  startTls: boolean;
  caCert: string | null;
  bindDn: string;
  /** Sealed. */
  bindPassword: string;
  baseDn: string;
  userFilter: string;
  loginAttribute: string;
  idAttribute: string;
  disabledFilter: string | null;
  attributeMap: TDirectoryAttributeRule[];
  mode: "on_demand" | "synchronised";
  syncIntervalS: number;
  missingPolicy: "lock" | "delete" | "keep";
  changeAttribute: "modifyTimestamp" | "uSNChanged";
  passwordChange: "off" | "self" | "self_and_reset";
  passwordProtocol: "rfc3062" | "active_directory";
  /** Null: the directory's groups are not mapped. */
  groupMap: TDirectoryGroups | null;
};

const SELECT = {
  id: true,
  name: true,
  enabled: true,
  url: true,
  startTls: true,
  caCert: true,
  bindDn: true,
  bindPassword: true,
  baseDn: true,
  userFilter: true,
  loginAttribute: true,
  idAttribute: true,
  disabledFilter: true,
  attributeMap: true,
  mode: true,
  syncIntervalS: true,
  missingPolicy: true,
  changeAttribute: true,
  passwordChange: true,
  passwordProtocol: true,
  groupMap: true,
} as const;

type TRow = Prisma.DirectoryGetPayload<{ select: typeof SELECT }>;
const toDirectory = (r: TRow): TDirectory => ({
  ...r,
  attributeMap: r.attributeMap as TDirectoryAttributeRule[],
  mode: r.mode as TDirectory["mode"],
  missingPolicy: r.missingPolicy as TDirectory["missingPolicy"],
  changeAttribute: r.changeAttribute as TDirectory["changeAttribute"],
  passwordChange: r.passwordChange as TDirectory["passwordChange"],
  passwordProtocol: r.passwordProtocol as TDirectory["passwordProtocol"],
  groupMap: r.groupMap as TDirectoryGroups | null,
});

export async function findAllDirectories(tx?: TTx): Promise<TDirectory[]> {
  const db = tx ?? (await getPrisma());
  return (await db.directory.findMany({ orderBy: { id: "asc" }, select: SELECT })).map(toDirectory);
}

export async function findDirectory(id: string, tx?: TTx): Promise<TDirectory | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.directory.findUnique({ where: { id }, select: SELECT });
  return row && toDirectory(row);
}

const dataOf = ({ id: _, attributeMap, groupMap, ...rest }: TDirectory) => ({
  ...rest,
  attributeMap: attributeMap as Prisma.InputJsonArray,
  groupMap: groupMap === null ? Prisma.DbNull : (groupMap as Prisma.InputJsonObject),
});

/** `resetMark`: the next synchronisation is a full one (the settings moved it to another server or part of the tree). */
export async function upsertDirectory(d: TDirectory, resetMark: boolean, tx: TTx): Promise<void> {
  const data = dataOf(d);
  await tx.directory.upsert({ where: { id: d.id }, create: { id: d.id, ...data }, update: { ...data, ...(resetMark ? { highWater: null } : {}) }, select: { id: true } });
}

/** A new directory; a taken id is the database's unique violation, which the caller turns into its 409. */
export async function insertDirectory(d: TDirectory, tx: TTx): Promise<void> {
  await tx.directory.create({ data: { id: d.id, ...dataOf(d) }, select: { id: true } });
}

/** Whether the directory was there to change. */
export async function updateDirectoryRow(d: TDirectory, resetMark: boolean, tx: TTx): Promise<boolean> {
  const { count } = await tx.directory.updateMany({ where: { id: d.id }, data: { ...dataOf(d), ...(resetMark ? { highWater: null } : {}) } });
  return count > 0;
}

/**
 * Deletes a directory with its runs and its accounts' links to their entries (the foreign keys
 * cascade); the accounts themselves stay. Whether it was there.
 */
export async function deleteDirectoryRow(id: string, tx: TTx): Promise<boolean> {
  const { count } = await tx.directory.deleteMany({ where: { id } });
  return count > 0;
}

/** The attributes the directory kept for its accounts become the service's again (the directory is being deleted). */
export async function releaseOwnedAttrsOf(directoryId: string, tx: TTx): Promise<void> {
  await tx.$executeRaw`UPDATE users SET owned_attrs = '{}' WHERE id IN (SELECT user_id FROM directory_accounts WHERE directory_id = ${directoryId})`;
}

/** How many accounts are entries of the directory. */
export async function countDirectoryAccounts(directoryId: string, tx?: TTx): Promise<number> {
  const db = tx ?? (await getPrisma());
  return db.directoryAccount.count({ where: { directoryId } });
}

export type TDirectoryAccount = { userId: string; directoryId: string; externalId: string; dn: string; disabled: boolean };
const LINK = { userId: true, directoryId: true, externalId: true, dn: true, disabled: true } as const;

/** The directory entry an account is, if it is one. */
export async function findDirectoryAccount(userId: string): Promise<TDirectoryAccount | null> {
  const prisma = await getPrisma();
  return prisma.directoryAccount.findUnique({ where: { userId }, select: LINK });
}

/** The account an entry (by its stable id) already is here. */
export async function findAccountOfEntry(directoryId: string, externalId: string, tx?: TTx): Promise<TDirectoryAccount | null> {
  const db = tx ?? (await getPrisma());
  return db.directoryAccount.findUnique({ where: { directoryId_externalId: { directoryId, externalId } }, select: LINK });
}

export async function insertDirectoryAccount(a: Omit<TDirectoryAccount, "disabled">, tx: TTx): Promise<void> {
  await tx.directoryAccount.create({ data: a, select: { userId: true } });
}

export async function insertDirectoryAccounts(rows: Omit<TDirectoryAccount, "disabled">[], tx: TTx): Promise<void> {
  if (rows.length) await tx.directoryAccount.createMany({ data: rows });
}

/** The entry was read again (at `at`): its DN may have moved; `disabled` when that changed too. */
export async function touchDirectoryAccount(userId: string, dn: string, at = new Date(), disabled?: boolean): Promise<void> {
  const prisma = await getPrisma();
  await prisma.directoryAccount.update({ where: { userId }, data: { dn, syncedAt: at, ...(disabled === undefined ? {} : { disabled }) }, select: { userId: true } });
}

/** A batch of the directory's accounts whose entries no run has seen since `before` (gone from the directory), not yet dealt with. */
export async function findUnseenAccounts(directoryId: string, before: Date, limit: number): Promise<TDirectoryAccount[]> {
  const prisma = await getPrisma();
  return prisma.directoryAccount.findMany({ where: { directoryId, syncedAt: { lt: before } }, select: LINK, orderBy: { userId: "asc" }, take: limit });
}

/** The accounts a page of entries already are here, by the entries' stable ids: one query for the page. */
export async function findAccountsOfEntries(directoryId: string, externalIds: string[]): Promise<Map<string, TDirectoryAccount>> {
  const prisma = await getPrisma();
  const rows = await prisma.directoryAccount.findMany({ where: { directoryId, externalId: { in: externalIds } }, select: LINK });
  return new Map(rows.map((r) => [r.externalId, r]));
}

/** A page of entries was read at `at`: one statement for all of them. */
export async function touchDirectoryAccounts(userIds: string[], at: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.directoryAccount.updateMany({ where: { userId: { in: userIds } }, data: { syncedAt: at } });
}
