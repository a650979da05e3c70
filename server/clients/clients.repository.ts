import { getPrisma, type TTx } from "../db/index.ts";
import type { TClientType, TGrantType } from "./clients.schemas.ts";

const VIEW = {
  id: true,
  name: true,
  type: true,
  firstParty: true,
  pkceOptional: true,
  grantTypes: true,
  postLogoutRedirectUris: true,
  accessTokenTtl: true,
  refreshTokenTtl: true,
  idTokenTtl: true,
  scopes: true,
  userScopes: true,
  redirectUris: true,
  tlsCns: true,
  dynSoftwareIds: true,
  parentId: true,
  enabled: true,
  restPasswordHash: true,
  createdAt: true,
  updatedAt: true,
} as const;

const AUTH = { ...VIEW, secretHash: true, protocol: true } as const;

export type TClientRow = {
  id: string;
  name: string;
  type: TClientType;
  firstParty: boolean;
  pkceOptional: boolean;
  grantTypes: TGrantType[];
  postLogoutRedirectUris: string[];
  accessTokenTtl: number | null;
  refreshTokenTtl: number | null;
  idTokenTtl: number | null;
  scopes: string[];
  userScopes: string[];
  redirectUris: string[];
  tlsCns: string[];
  /** Software ids whose instances may register under this client. */
  dynSoftwareIds: string[];
  /** A dynamically registered instance: the client it inherits from. */
  parentId: string | null;
  enabled: boolean;
  restPasswordHash: string | null;
  createdAt: Date;
  updatedAt: Date;
};
/** A public client has no secret: secretHash is null. `protocol` "saml": the row of a SAML service provider. */
export type TClientAuthRow = TClientRow & { secretHash: string | null; protocol: string };

export type TClientWrite = {
  name: string;
  type: TClientType;
  firstParty: boolean;
  pkceOptional: boolean;
  grantTypes: TGrantType[];
  scopes: string[];
  userScopes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  accessTokenTtl: number | null;
  refreshTokenTtl: number | null;
  idTokenTtl: number | null;
  tlsCns: string[];
  dynSoftwareIds: string[];
  enabled?: boolean;
  secretHash?: string | null;
  restPasswordHash?: string | null;
};

export async function findClientForAuth(id: string, tx?: TTx): Promise<TClientAuthRow | null> {
  const db = tx ?? (await getPrisma());
  return db.client.findUnique({ where: { id }, select: AUTH }) as Promise<TClientAuthRow | null>;
}

/** Up to `limit` clients (not instances) that list `cn` among their TLS certificate CNs. */
export async function findClientIdsByTlsCn(cn: string, limit: number): Promise<string[]> {
  const prisma = await getPrisma();
  const rows = await prisma.client.findMany({ where: { tlsCns: { has: cn }, parentId: null }, select: { id: true }, orderBy: { id: "asc" }, take: limit });
  return rows.map((r) => r.id);
}

/** An OAuth client; the row a SAML service provider has in this table is not one (server/saml/). */
export async function findClientById(id: string): Promise<TClientRow | null> {
  const prisma = await getPrisma();
  return prisma.client.findFirst({ where: { id, protocol: "oidc" }, select: VIEW }) as Promise<TClientRow | null>;
}

/**
 * Keyset pagination by id: stable while clients are added or removed between pages. Dynamically
 * registered instances are not listed: there is one per installation, and they are their users' apps.
 */
export async function findClients(opts: { search?: string; after?: string; limit: number }): Promise<TClientRow[]> {
  const prisma = await getPrisma();
  const search = opts.search
    ? { OR: [{ id: { contains: opts.search, mode: "insensitive" as const } }, { name: { contains: opts.search, mode: "insensitive" as const } }] }
    : {};
  return prisma.client.findMany({
    where: { parentId: null, protocol: "oidc", ...search, ...(opts.after ? { id: { gt: opts.after } } : {}) },
    orderBy: { id: "asc" },
    take: opts.limit,
    select: VIEW,
  }) as Promise<TClientRow[]>;
}

export async function insertClient(id: string, data: TClientWrite, tx?: TTx): Promise<TClientRow> {
  const db = tx ?? (await getPrisma());
  // The creation time by this process's clock, the one its tokens' iat is read against (issuedToThisClient).
  return db.client.create({ data: { id, ...data, createdAt: new Date() }, select: VIEW }) as Promise<TClientRow>;
}

export async function updateClientRow(id: string, data: Partial<TClientWrite>, tx?: TTx): Promise<TClientRow> {
  const db = tx ?? (await getPrisma());
  return db.client.update({ where: { id }, data, select: VIEW }) as Promise<TClientRow>;
}

/** What deleting a client takes with it: its live grants and the instances registered under it. */
export async function countClientLinks(id: string, now: Date) {
  const prisma = await getPrisma();
  const [refreshTokens, consents, instances] = await Promise.all([
    prisma.refreshToken.count({ where: { OR: [{ clientId: id }, { client: { parentId: id } }], revokedAt: null, expiresAt: { gt: now } } }),
    prisma.consent.count({ where: { OR: [{ clientId: id }, { client: { parentId: id } }] } }),
    prisma.client.count({ where: { parentId: id } }),
  ]);
  return { refreshTokens, consents, instances };
}

/**
 * Removes a client; the database cascades to its instances, sign-ins in progress, codes, consents
 * and refresh tokens. Attribute selections name the client without a foreign key and go here.
 * Security events keep the id: they are the record of what the application did.
 */
export async function deleteClientRow(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  return prisma.$transaction(async (tx) => {
    await tx.clientAttributeSelection.deleteMany({ where: { clientId: id } });
    const { count } = await tx.client.deleteMany({ where: { id, parentId: null } });
    return count === 1;
  });
}
