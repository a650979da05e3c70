import { getPrisma, type TTx } from "../db/index.ts";

// The only code that touches Prisma for external providers. clientSecret is the sealed value.

const PROVIDER = {
  fpType: true, fpName: true, clientId: true, clientSecret: true, discoveryUrl: true, authorizationEndpoint: true, tokenEndpoint: true,
  userinfoEndpoint: true, jwksUri: true, issuer: true, scopes: true, sidClaim: true, userNameClaim: true, offeredAtSignIn: true,
  rememberTokens: true, minTokenLifeS: true, allowRegistration: true,
} as const;

export type TProviderRow = {
  fpType: string;
  fpName: string;
  clientId: string;
  clientSecret: string | null;
  discoveryUrl: string | null;
  authorizationEndpoint: string | null;
  tokenEndpoint: string | null;
  userinfoEndpoint: string | null;
  jwksUri: string | null;
  issuer: string | null;
  scopes: string[];
  sidClaim: string;
  userNameClaim: string;
  offeredAtSignIn: boolean;
  rememberTokens: boolean;
  minTokenLifeS: number;
  allowRegistration: boolean;
};
export type TProviderKeyRow = { fpType: string; fpName: string };

export async function findProviders(tx?: TTx): Promise<TProviderRow[]> {
  const db = tx ?? (await getPrisma());
  return db.federationProvider.findMany({ select: PROVIDER, orderBy: [{ fpType: "asc" }, { fpName: "asc" }] });
}

export async function findProvider(key: TProviderKeyRow, tx?: TTx): Promise<TProviderRow | null> {
  const db = tx ?? (await getPrisma());
  return db.federationProvider.findUnique({ where: { fpType_fpName: key }, select: PROVIDER });
}

/** Inserts or replaces the whole row (the caller has sealed the secret or kept the stored one). */
export async function upsertProvider(row: TProviderRow, tx?: TTx): Promise<void> {
  const db = tx ?? (await getPrisma());
  const { fpType, fpName, ...data } = row;
  await db.federationProvider.upsert({ where: { fpType_fpName: { fpType, fpName } }, create: row, update: data, select: { fpType: true } });
}

/**
 * Locks the provider's row until the transaction ends (false when there is none): a bind in flight
 * holds a key-share lock on it (lockProviderShared, and the foreign key), so a count of its bindings
 * taken after this is exact, and a bind that starts later waits, then finds the provider gone.
 */
export async function lockProvider(key: TProviderKeyRow, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ fp_name: string }[]>`SELECT fp_name FROM federation_providers WHERE fp_type = ${key.fpType} AND fp_name = ${key.fpName} FOR UPDATE`;
  return rows.length > 0;
}

/** Holds the provider (shared) until the transaction ends, so it cannot be deleted under a bind; false when there is none. */
export async function lockProviderShared(key: TProviderKeyRow, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ fp_name: string }[]>`SELECT fp_name FROM federation_providers WHERE fp_type = ${key.fpType} AND fp_name = ${key.fpName} FOR KEY SHARE`;
  return rows.length > 0;
}

export async function deleteProvider(key: TProviderKeyRow, tx?: TTx): Promise<boolean> {
  const db = tx ?? (await getPrisma());
  return (await db.federationProvider.deleteMany({ where: key })).count > 0;
}

/** Bindings per provider, keyed `<fpType>:<fpName>`. */
export async function countBindings(tx?: TTx): Promise<Map<string, number>> {
  const db = tx ?? (await getPrisma());
  const rows = await db.federatedAccount.groupBy({ by: ["fpType", "fpName"], _count: { _all: true } });
  return new Map(rows.map((r) => [`${r.fpType}:${r.fpName}`, r._count._all]));
}
