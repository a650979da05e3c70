import { getPrisma } from "../../db/index.ts";

// The only code that touches Prisma for pending requests to external providers. stateHash is a hash
// of the state (or of the v2 handle); codeVerifier is sealed.

export type TRequestRow = {
  stateHash: string;
  fpType: string;
  fpName: string;
  purpose: string;
  userId: string | null;
  flowId: string | null;
  clientId: string | null;
  returnTo: string | null;
  isPopup: boolean;
  awaitingSession: boolean;
  nonce: string | null;
  codeVerifier: string | null;
  expiresAt: Date;
};

/** Stores a request, sweeping expired ones on the way (an index on expires_at keeps that cheap). */
export async function insertRequest(row: TRequestRow, now = new Date()): Promise<void> {
  const prisma = await getPrisma();
  await prisma.externalAuthRequest.deleteMany({ where: { expiresAt: { lt: now } } });
  await prisma.externalAuthRequest.create({ data: row, select: { stateHash: true } });
}

/**
 * Takes the request out in one statement: of two callbacks with one state, exactly one gets the row.
 * An expired row is taken too (and refused by the caller), so it cannot linger.
 */
export async function takeRequest(stateHash: string, awaitingSession: boolean): Promise<TRequestRow | null> {
  const prisma = await getPrisma();
  const rows = await prisma.$queryRaw<TRequestRow[]>`
    DELETE FROM external_auth_requests WHERE state_hash = ${stateHash} AND awaiting_session = ${awaitingSession}
    RETURNING state_hash AS "stateHash", fp_type AS "fpType", fp_name AS "fpName", purpose, user_id AS "userId", flow_id AS "flowId",
      client_id AS "clientId", return_to AS "returnTo", is_popup AS "isPopup", awaiting_session AS "awaitingSession", nonce,
      code_verifier AS "codeVerifier", expires_at AS "expiresAt"`;
  return rows[0] ?? null;
}

/** A v2-style handle as it stands, left in place (the confirmation page shows it before it is used). */
export async function findHandle(stateHash: string): Promise<TRequestRow | null> {
  const prisma = await getPrisma();
  return prisma.externalAuthRequest.findFirst({ where: { stateHash, awaitingSession: true }, omit: { createdAt: true } });
}
