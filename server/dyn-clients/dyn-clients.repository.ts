import { getPrisma, type TTx } from "../db/index.ts";

export type TInstanceWrite = {
  id: string;
  name: string;
  type: "public" | "confidential";
  secretHash: string | null;
  parentId: string;
  softwareId: string;
  softwareVersion: string | null;
};

export type TInstanceRow = {
  id: string;
  name: string;
  parentId: string;
  softwareId: string | null;
  softwareVersion: string | null;
  boundAt: Date | null;
  lastSeenAt: Date | null;
  createdAt: Date;
};

const INSTANCE = { id: true, name: true, parentId: true, softwareId: true, softwareVersion: true, boundAt: true, lastSeenAt: true, createdAt: true } as const;

/** An instance has no settings of its own: it inherits them (see inheritFromParent), so the arrays stay empty. */
export async function insertInstance(row: TInstanceWrite): Promise<Date> {
  const prisma = await getPrisma();
  // createdAt by this process's clock, as for any client (clients.repository.ts insertClient).
  const created = await prisma.client.create({ data: { ...row, scopes: [], grantTypes: [], createdAt: new Date() }, select: { createdAt: true } });
  return created.createdAt;
}

/**
 * Binds an instance to `userId` if it is free, or notes a new sign-in if it is the user's already.
 * One conditional update each, so of two accounts signing in through a free instance at once one wins.
 */
export async function bindInstance(id: string, userId: string, at: Date, tx?: TTx): Promise<"bound" | "already" | "refused"> {
  const db = tx ?? (await getPrisma());
  const free = await db.client.updateMany({ where: { id, parentId: { not: null }, boundUserId: null }, data: { boundUserId: userId, boundAt: at, lastSeenAt: at } });
  if (free.count === 1) return "bound";
  const own = await db.client.updateMany({ where: { id, parentId: { not: null }, boundUserId: userId }, data: { lastSeenAt: at } });
  return own.count === 1 ? "already" : "refused";
}

/** Of `ids`, the instances registered under `parentId` and whether each is bound already. */
export async function findInstancesUnder(parentId: string, ids: string[]): Promise<{ id: string; bound: boolean }[]> {
  const prisma = await getPrisma();
  const rows = await prisma.client.findMany({ where: { id: { in: ids }, parentId }, select: { id: true, boundUserId: true } });
  return rows.map((r) => ({ id: r.id, bound: r.boundUserId !== null }));
}

export async function findInstancesOf(userId: string): Promise<TInstanceRow[]> {
  const prisma = await getPrisma();
  const rows = await prisma.client.findMany({ where: { boundUserId: userId }, select: INSTANCE, orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }] });
  return rows.map((r) => ({ ...r, parentId: r.parentId! }));
}

/** Deletes an instance of the user; its codes, refresh tokens, consents and flows go with it (cascade). */
export async function deleteInstanceOf(userId: string, id: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.client.deleteMany({ where: { id, boundUserId: userId, parentId: { not: null } } })).count > 0;
}

/** Instances registered before `before` that nobody signed in through. */
export async function deleteUnboundInstances(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.client.deleteMany({ where: { parentId: { not: null }, boundUserId: null, createdAt: { lt: before } } })).count;
}
