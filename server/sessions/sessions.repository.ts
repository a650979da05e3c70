import { getPrisma, type TTx } from "../db/index.ts";

export type TSessionRow = { id: string; userId: string; deviceId: string | null; authTime: Date; amr: string[]; expiresAt: Date; lastSeenAt: Date };
const SESSION = { id: true, userId: true, deviceId: true, authTime: true, amr: true, expiresAt: true, lastSeenAt: true } as const;

export async function insertSession(row: TSessionRow & { tokenHash: string }, tx: TTx): Promise<void> {
  await tx.browserSession.create({ data: row, select: { id: true } });
}

async function findSessionWhere(where: { tokenHash: string } | { id: string }): Promise<(TSessionRow & { userLocked: boolean }) | null> {
  const prisma = await getPrisma();
  const row = await prisma.browserSession.findUnique({ where, select: { ...SESSION, user: { select: { locked: true } } } });
  if (!row) return null;
  const { user, ...session } = row;
  return { ...session, userLocked: user.locked };
}

/** The session a cookie names, with whether its account is locked now. */
export const findSessionByTokenHash = (tokenHash: string) => findSessionWhere({ tokenHash });

/** A session by its id, with whether its account is locked now. */
export const findSessionById = (id: string) => findSessionWhere({ id });

export async function updateSessionSeen(id: string, at: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.browserSession.updateMany({ where: { id }, data: { lastSeenAt: at } });
}

/** Ends the session a token names, if any, in the caller's transaction. */
/** The session a browser held before signing in again (ended by the caller once the new one stands). */
export async function findReplacedSession(tokenHash: string, tx: TTx): Promise<{ id: string; userId: string } | null> {
  return tx.browserSession.findUnique({ where: { tokenHash }, select: { id: true, userId: true } });
}

/**
 * Ends a replaced session. When the same person signed in again in the same browser, the SAML
 * applications it signed in to (server/saml/) move to the new session first: single logout must
 * still reach them, and their logout requests name them by the session.
 */
export async function retireReplacedSession(replaced: { id: string; userId: string }, by: { id: string; userId: string }, tx: TTx): Promise<void> {
  if (replaced.userId === by.userId) await tx.samlParticipant.updateMany({ where: { sessionId: replaced.id }, data: { sessionId: by.id } });
  await tx.browserSession.deleteMany({ where: { id: replaced.id } });
}

export async function deleteSession(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.browserSession.deleteMany({ where: { id } })).count > 0;
}

export async function deleteExpiredSessions(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.browserSession.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}

export type TDeviceWrite = { kind: string; name: string; userAgent: string | null; lastIp: string | null; lastSeenAt: Date };

export async function findDeviceId(userId: string, keyHash: string, tx?: TTx): Promise<string | null> {
  const db = tx ?? (await getPrisma());
  return (await db.device.findUnique({ where: { userId_keyHash: { userId, keyHash } }, select: { id: true } }))?.id ?? null;
}

export async function insertDevice(row: TDeviceWrite & { id: string; userId: string; keyHash: string }, tx: TTx): Promise<void> {
  await tx.device.create({ data: { ...row, firstSeenAt: row.lastSeenAt }, select: { id: true } });
}

/** Updates the user's device a key names, in one statement; its id, or null when the key names none of theirs. */
export async function touchDevice(userId: string, keyHash: string, data: TDeviceWrite, tx: TTx): Promise<string | null> {
  const rows = await tx.device.updateManyAndReturn({ where: { userId, keyHash }, data, select: { id: true } });
  return rows[0]?.id ?? null;
}

/** Ends the user's sessions, but those on `keepDevice`; returns the ids of the sessions ended. */
export async function deleteUserSessions(userId: string, keepDevice?: string): Promise<string[]> {
  const prisma = await getPrisma();
  const where = keepDevice ? { userId, OR: [{ deviceId: null }, { deviceId: { not: keepDevice } }] } : { userId };
  return prisma.$transaction(async (tx) => {
    const rows = await tx.browserSession.findMany({ where, select: { id: true } });
    await tx.browserSession.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return rows.map((r) => r.id);
  });
}

export async function findSessionIdsOfDevice(userId: string, deviceId: string): Promise<string[]> {
  const prisma = await getPrisma();
  return (await prisma.browserSession.findMany({ where: { userId, deviceId }, select: { id: true } })).map((r) => r.id);
}

export type TDeviceRow = { id: string; kind: string; name: string; firstSeenAt: Date; lastSeenAt: Date; lastIp: string | null };

export async function findDevicesOf(userId: string): Promise<TDeviceRow[]> {
  const prisma = await getPrisma();
  return prisma.device.findMany({
    where: { userId },
    select: { id: true, kind: true, name: true, firstSeenAt: true, lastSeenAt: true, lastIp: true },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
  });
}

/** Removes a device of the user and (by cascade) its sessions; returns the ids of those sessions, or null when there is no such device. */
export async function deleteDeviceOf(userId: string, id: string): Promise<string[] | null> {
  const prisma = await getPrisma();
  return prisma.$transaction(async (tx) => {
    const sessions = await tx.browserSession.findMany({ where: { userId, deviceId: id }, select: { id: true } });
    const { count } = await tx.device.deleteMany({ where: { userId, id } });
    return count ? sessions.map((s) => s.id) : null;
  });
}

/** Browser sessions at the service that have not expired: the expires_at index's range. */
export async function countLiveSessions(now: Date): Promise<number> {
  const prisma = await getPrisma();
  return prisma.browserSession.count({ where: { expiresAt: { gt: now } } });
}
