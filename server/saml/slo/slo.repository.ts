import { randomBytes } from "node:crypto";
import { getPrisma } from "../../db/index.ts";
import type { Prisma } from "../../db/generated/client.ts";

export type TParticipant = { sessionId: string; spId: string; nameId: string; nameIdFormat: string; sessionIndex: string };
export type THop = Omit<TParticipant, "sessionId"> & { state: "pending" | "sent" | "done" | "failed"; requestId?: string };
export type TLogoutRow = { userId: string; originSpId: string | null; originRequestId: string | null; originRelayState: string | null; returnTo: string | null; hops: THop[]; expiresAt: Date };

const PARTICIPANT = { sessionId: true, spId: true, nameId: true, nameIdFormat: true, sessionIndex: true } as const;

/** The provider's place in the session: made at its first sign-on, its SessionIndex kept after that. */
export async function upsertParticipant(p: Omit<TParticipant, "sessionIndex">): Promise<string> {
  const prisma = await getPrisma();
  const row = await prisma.samlParticipant.upsert({
    where: { sessionId_spId: { sessionId: p.sessionId, spId: p.spId } },
    create: { id: randomBytes(12).toString("base64url"), ...p, sessionIndex: `_${randomBytes(20).toString("hex")}` },
    update: { nameId: p.nameId, nameIdFormat: p.nameIdFormat },
    select: { sessionIndex: true },
  });
  return row.sessionIndex;
}

/** The provider's place in this session, if it signed in during it. */
export async function findParticipant(sessionId: string, spId: string): Promise<TParticipant | null> {
  const prisma = await getPrisma();
  return prisma.samlParticipant.findUnique({ where: { sessionId_spId: { sessionId, spId } }, select: PARTICIPANT });
}

/** The participants a provider's logout request names: by its SessionIndex values, else every session of that NameID there. */
export async function findNamedParticipants(spId: string, nameId: string, sessionIndexes: string[]): Promise<TParticipant[]> {
  const prisma = await getPrisma();
  return prisma.samlParticipant.findMany({ where: { spId, nameId, ...(sessionIndexes.length ? { sessionIndex: { in: sessionIndexes } } : {}) }, select: PARTICIPANT });
}

/** Every provider of these sessions, with whose session each is. */
export async function participantsOfSessions(sessionIds: string[]): Promise<(TParticipant & { userId: string })[]> {
  const prisma = await getPrisma();
  const rows = await prisma.samlParticipant.findMany({ where: { sessionId: { in: sessionIds } }, select: { ...PARTICIPANT, session: { select: { userId: true } } }, orderBy: { createdAt: "asc" } });
  return rows.map(({ session, ...p }) => ({ ...p, userId: session.userId }));
}

export async function insertLogout(handleHash: string, row: TLogoutRow): Promise<void> {
  const prisma = await getPrisma();
  await prisma.samlLogout.create({ data: { handleHash, ...row, hops: row.hops as unknown as Prisma.InputJsonArray }, select: { handleHash: true } });
}

export async function findLogout(handleHash: string, now: Date): Promise<TLogoutRow | null> {
  const prisma = await getPrisma();
  const row = await prisma.samlLogout.findUnique({ where: { handleHash }, select: { userId: true, originSpId: true, originRequestId: true, originRelayState: true, returnTo: true, hops: true, expiresAt: true } });
  return row && row.expiresAt > now ? { ...row, hops: row.hops as unknown as THop[] } : null;
}

/** Moves the logout on from the hops it was read with: of two answers racing, one wins. */
export async function replaceHops(handleHash: string, from: THop[], to: THop[]): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.samlLogout.updateMany({ where: { handleHash, hops: { equals: from as unknown as Prisma.InputJsonArray } }, data: { hops: to as unknown as Prisma.InputJsonArray } });
  return count === 1;
}

/** Ends a logout; false when it was ended already (by a request racing this one). */
export async function deleteLogout(handleHash: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.samlLogout.deleteMany({ where: { handleHash } })).count === 1;
}

export async function deleteExpiredLogouts(now: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.samlLogout.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
