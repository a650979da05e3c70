import { getPrisma, type TTx } from "../db/index.ts";

const VIEW = {
  id: true,
  name: true,
  scopes: true,
  userScopes: true,
  redirectUris: true,
  tlsCns: true,
  enabled: true,
  restPasswordHash: true,
  createdAt: true,
  updatedAt: true,
} as const;

const AUTH = { ...VIEW, secretHash: true } as const;

export type TClientRow = {
  id: string;
  name: string;
  scopes: string[];
  userScopes: string[];
  redirectUris: string[];
  tlsCns: string[];
  enabled: boolean;
  restPasswordHash: string | null;
  createdAt: Date;
  updatedAt: Date;
};
export type TClientAuthRow = TClientRow & { secretHash: string };

export type TClientWrite = {
  name: string;
  scopes: string[];
  userScopes: string[];
  redirectUris: string[];
  tlsCns: string[];
  enabled?: boolean;
  secretHash?: string;
  restPasswordHash?: string | null;
};

export async function findClientForAuth(id: string, tx?: TTx): Promise<TClientAuthRow | null> {
  const db = tx ?? (await getPrisma());
  return db.client.findUnique({ where: { id }, select: AUTH });
}

export async function findClientById(id: string): Promise<TClientRow | null> {
  const prisma = await getPrisma();
  return prisma.client.findUnique({ where: { id }, select: VIEW });
}

/** Keyset pagination by id: stable while clients are added or removed between pages. */
export async function findClients(opts: { search?: string; after?: string; limit: number }): Promise<TClientRow[]> {
  const prisma = await getPrisma();
  const search = opts.search
    ? { OR: [{ id: { contains: opts.search, mode: "insensitive" as const } }, { name: { contains: opts.search, mode: "insensitive" as const } }] }
    : {};
  return prisma.client.findMany({
    where: { ...search, ...(opts.after ? { id: { gt: opts.after } } : {}) },
    orderBy: { id: "asc" },
    take: opts.limit,
    select: VIEW,
  });
}

export async function insertClient(id: string, data: TClientWrite & { secretHash: string }, tx?: TTx): Promise<TClientRow> {
  const db = tx ?? (await getPrisma());
  return db.client.create({ data: { id, ...data }, select: VIEW });
}

export async function updateClientRow(id: string, data: Partial<TClientWrite>, tx?: TTx): Promise<TClientRow> {
  const db = tx ?? (await getPrisma());
  return db.client.update({ where: { id }, data, select: VIEW });
}
