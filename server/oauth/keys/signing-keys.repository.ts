import { getPrisma } from "../../db/index.ts";
import type { Prisma } from "../../db/generated/client.ts";

export type TSigningKeyRow = { kid: string; alg: string; publicJwk: unknown; privateKeyEnc: string; createdAt: Date };

/** Keys still signing, oldest first, so every instance picks the same one. */
export async function findActiveSigningKeys(): Promise<TSigningKeyRow[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    where: { retiredAt: null },
    orderBy: [{ createdAt: "asc" }, { kid: "asc" }],
    select: { kid: true, alg: true, publicJwk: true, privateKeyEnc: true, createdAt: true },
  });
}

/** Keys whose tokens may still be alive: active ones and those retired after `since`. */
export async function findPublishedSigningKeys(since: Date): Promise<{ kid: string; publicJwk: unknown }[]> {
  const prisma = await getPrisma();
  return prisma.signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
    orderBy: [{ createdAt: "asc" }, { kid: "asc" }],
    select: { kid: true, publicJwk: true },
  });
}

export async function insertSigningKey(row: { kid: string; alg: string; publicJwk: Prisma.InputJsonObject; privateKeyEnc: string }) {
  const prisma = await getPrisma();
  await prisma.signingKey.create({ data: row, select: { kid: true } });
}
