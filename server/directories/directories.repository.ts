import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";
import type { TDirectoryAttributeRule } from "./directory.schemas.ts";

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
} as const;

type TRow = Prisma.DirectoryGetPayload<{ select: typeof SELECT }>;
const toDirectory = (r: TRow): TDirectory => ({ ...r, attributeMap: r.attributeMap as TDirectoryAttributeRule[], mode: r.mode as TDirectory["mode"] });

export async function findAllDirectories(tx?: TTx): Promise<TDirectory[]> {
  const db = tx ?? (await getPrisma());
  return (await db.directory.findMany({ orderBy: { id: "asc" }, select: SELECT })).map(toDirectory);
}

export async function findDirectory(id: string, tx?: TTx): Promise<TDirectory | null> {
  const db = tx ?? (await getPrisma());
  const row = await db.directory.findUnique({ where: { id }, select: SELECT });
  return row && toDirectory(row);
}

export async function upsertDirectory(d: TDirectory, tx: TTx): Promise<void> {
  const { id, attributeMap, ...rest } = d;
  const data = { ...rest, attributeMap: attributeMap as Prisma.InputJsonArray };
  await tx.directory.upsert({ where: { id }, create: { id, ...data }, update: data, select: { id: true } });
}

export type TDirectoryAccount = { userId: string; directoryId: string; externalId: string; dn: string };

/** The directory entry an account is, if it is one. */
export async function findDirectoryAccount(userId: string): Promise<TDirectoryAccount | null> {
  const prisma = await getPrisma();
  return prisma.directoryAccount.findUnique({ where: { userId }, select: { userId: true, directoryId: true, externalId: true, dn: true } });
}

/** The account an entry (by its stable id) already is here. */
export async function findAccountOfEntry(directoryId: string, externalId: string, tx?: TTx): Promise<TDirectoryAccount | null> {
  const db = tx ?? (await getPrisma());
  return db.directoryAccount.findUnique({ where: { directoryId_externalId: { directoryId, externalId } }, select: { userId: true, directoryId: true, externalId: true, dn: true } });
}

export async function insertDirectoryAccount(a: TDirectoryAccount, tx: TTx): Promise<void> {
  await tx.directoryAccount.create({ data: a, select: { userId: true } });
}

/** The entry was read again: its DN may have moved. */
export async function touchDirectoryAccount(userId: string, dn: string, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  await db.directoryAccount.update({ where: { userId }, data: { dn, syncedAt: new Date() }, select: { userId: true } });
}
