import { randomUUID } from "node:crypto";
import { getPrisma } from "../db/index.ts";

export async function findConsentScopes(userId: string, clientId: string): Promise<string[] | null> {
  const prisma = await getPrisma();
  const row = await prisma.consent.findUnique({ where: { userId_clientId: { userId, clientId } }, select: { scopes: true } });
  return row?.scopes ?? null;
}

/** Stores the scopes granted, merged with those granted before, in one statement (no lost update). */
export async function upsertConsent(userId: string, clientId: string, scopes: string[]): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$executeRaw`
    INSERT INTO consents (id, user_id, client_id, scopes, updated_at) VALUES (${randomUUID()}, ${userId}, ${clientId}, ${scopes}::text[], now())
    ON CONFLICT (user_id, client_id) DO UPDATE
    SET scopes = ARRAY(SELECT DISTINCT unnest(consents.scopes || EXCLUDED.scopes) ORDER BY 1), updated_at = now()`;
}

export type TConsentRow = { id: string; clientId: string; scopes: string[]; updatedAt: Date };

export async function findConsentsOf(userId: string): Promise<TConsentRow[]> {
  const prisma = await getPrisma();
  return prisma.consent.findMany({ where: { userId }, select: { id: true, clientId: true, scopes: true, updatedAt: true }, orderBy: [{ updatedAt: "desc" }, { id: "asc" }] });
}

/** Deletes a consent of the user; returns the client it was given to, or null when there is none. */
export async function deleteConsentOf(userId: string, id: string): Promise<string | null> {
  const prisma = await getPrisma();
  return prisma.$transaction(async (tx) => {
    const row = await tx.consent.findFirst({ where: { userId, id }, select: { clientId: true } });
    if (row) await tx.consent.delete({ where: { id }, select: { id: true } });
    return row?.clientId ?? null;
  });
}
