import { getPrisma, type TTx } from "../../db/index.ts";

// Every token of a deleted account is cut off: its cutoff rows went with it.
const FOREVER = new Date(8_640_000_000_000_000);

/**
 * The user's cutoffs: session id ("" for every token of the user) → not before. An account that no
 * longer exists has a user-wide cutoff at the end of time.
 */
export async function findCutoffs(userId: string): Promise<Map<string, Date>> {
  const prisma = await getPrisma();
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: { tokenCutoffs: { select: { sessionId: true, notBefore: true } } },
  });
  if (!user) return new Map([["", FOREVER]]);
  return new Map(user.tokenCutoffs.map((r) => [r.sessionId, r.notBefore]));
}

/**
 * Moves the user-wide cutoff to `at`. Sessions in `keep` go on under the cutoff they had (their own
 * row, else the user-wide one, else none); every other session's own row goes, so the new user-wide
 * cutoff covers it.
 */
export async function moveUserCutoff(userId: string, at: Date, keep: string[], tx: TTx): Promise<void> {
  const previous = await tx.tokenCutoff.findUnique({ where: { userId_sessionId: { userId, sessionId: "" } }, select: { notBefore: true } });
  const kept = previous?.notBefore ?? new Date(0);
  await tx.tokenCutoff.createMany({ data: keep.map((sessionId) => ({ userId, sessionId, notBefore: kept })), skipDuplicates: true });
  await tx.tokenCutoff.deleteMany({ where: { userId, sessionId: { notIn: ["", ...keep] } } });
  await tx.tokenCutoff.upsert({
    where: { userId_sessionId: { userId, sessionId: "" } },
    create: { userId, sessionId: "", notBefore: at },
    update: { notBefore: at },
    select: { userId: true },
  });
}

/** Cuts off the tokens of some sessions of the user at `at`. */
export async function moveSessionCutoffs(userId: string, sessionIds: string[], at: Date, tx: TTx): Promise<void> {
  for (const sessionId of sessionIds) {
    await tx.tokenCutoff.upsert({
      where: { userId_sessionId: { userId, sessionId } },
      create: { userId, sessionId, notBefore: at },
      update: { notBefore: at },
      select: { userId: true },
    });
  }
}

/**
 * Gives `sessionId` its own cutoff at `second` when the user-wide cutoff still falls inside that
 * second and not after `startedAt` (the session began after it). The user-wide row is locked, so a
 * cutoff moved meanwhile (which ends every session) is seen, and then nothing is written.
 */
export async function exemptSessionStartedAfter(userId: string, sessionId: string, second: Date, startedAt: Date, tx: TTx): Promise<boolean> {
  const rows = await tx.$queryRaw<{ not_before: Date }[]>`
    SELECT not_before FROM token_cutoffs WHERE user_id = ${userId} AND session_id = '' FOR UPDATE`;
  const userWide = rows[0]?.not_before;
  if (!userWide || userWide <= second || userWide > startedAt) return false;
  await tx.tokenCutoff.create({ data: { userId, sessionId, notBefore: second }, select: { userId: true } });
  return true;
}
