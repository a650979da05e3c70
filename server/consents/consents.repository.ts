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
