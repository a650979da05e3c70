import { getPrisma, type TTx } from "../db/index.ts";

export type TOutboxStatus = "pending" | "sent" | "failed";

export type TOutboxInsert = {
  id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  bodySealed: string;
  locale: string;
  template: string;
  purpose: string;
  userId: string | null;
  nextAttemptAt: Date;
};

/** What a worker needs to deliver a claimed message. */
export type TClaimedRow = { id: string; channel: string; recipient: string; subject: string | null; bodySealed: string; attempts: number };

/** What the console lists: everything but the sealed body. */
export type TOutboxRow = {
  id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  locale: string;
  template: string;
  purpose: string;
  userId: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  sentAt: Date | null;
};

const ROW = {
  id: true,
  channel: true,
  recipient: true,
  subject: true,
  locale: true,
  template: true,
  purpose: true,
  userId: true,
  status: true,
  attempts: true,
  lastError: true,
  nextAttemptAt: true,
  createdAt: true,
  sentAt: true,
} as const;

/** Inserts with the caller's transaction, so the message commits or rolls back with its cause. */
export async function insertOutboxMessage(tx: TTx, data: TOutboxInsert): Promise<void> {
  await tx.outboxMessage.create({ data, select: { id: true } });
}

/**
 * Claims up to `limit` due pending messages by moving their due time to `leaseUntil`. SKIP LOCKED
 * lets workers of several instances claim at once without waiting for or sharing a row; a worker
 * that dies mid-send leaves its rows to be claimed again when the lease ends.
 */
export async function claimDueMessages(now: Date, leaseUntil: Date, limit: number): Promise<TClaimedRow[]> {
  const prisma = await getPrisma();
  return prisma.$queryRaw<TClaimedRow[]>`
    UPDATE "outbox_messages" SET "next_attempt_at" = ${leaseUntil}
    WHERE "id" IN (
      SELECT "id" FROM "outbox_messages"
      WHERE "status" = 'pending' AND "next_attempt_at" <= ${now}
      ORDER BY "next_attempt_at"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING "id", "channel", "recipient", "subject", "body_sealed" AS "bodySealed", "attempts"`;
}

export type TDeliveryOutcome = {
  status: TOutboxStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
};

export async function recordOutcome(id: string, outcome: TDeliveryOutcome): Promise<void> {
  const prisma = await getPrisma();
  await prisma.outboxMessage.updateMany({ where: { id }, data: outcome });
}

/** Takes messages out of the worker's sight until their channel gets a transport (see unpark). */
export async function parkMessage(id: string, lastError: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.outboxMessage.updateMany({ where: { id, status: "pending" }, data: { lastError, nextAttemptAt: null } });
}

/**
 * Deletes every message written before `cutoff`, sent, failed or still pending: by then its codes
 * have long expired, and a parked one would only deliver a dead code if a transport came now.
 */
export async function deleteMessagesBefore(cutoff: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.outboxMessage.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}

/** Makes parked messages of channels that now have a transport due at once. */
export async function unparkMessages(channels: string[], now: Date): Promise<number> {
  const prisma = await getPrisma();
  const { count } = await prisma.outboxMessage.updateMany({
    where: { status: "pending", nextAttemptAt: null, channel: { in: channels } },
    data: { nextAttemptAt: now },
  });
  return count;
}

/** Newest first; keyset on (createdAt, id), stable while messages are added between pages. */
export async function findOutboxPage(opts: { status?: TOutboxStatus; before?: { createdAt: Date; id: string }; limit: number }): Promise<TOutboxRow[]> {
  const prisma = await getPrisma();
  const before = opts.before
    ? { OR: [{ createdAt: { lt: opts.before.createdAt } }, { createdAt: opts.before.createdAt, id: { lt: opts.before.id } }] }
    : {};
  return prisma.outboxMessage.findMany({
    where: { ...(opts.status ? { status: opts.status } : {}), ...before },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: opts.limit,
    select: ROW,
  });
}

export async function findOutboxMessage(id: string): Promise<(TOutboxRow & { bodySealed: string }) | null> {
  const prisma = await getPrisma();
  return prisma.outboxMessage.findUnique({ where: { id }, select: { ...ROW, bodySealed: true } });
}

/** Puts a pending or failed message back in the queue with fresh attempts; false when it was sent meanwhile. */
export async function requeueMessage(id: string, now: Date): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.outboxMessage.updateMany({
    where: { id, status: { in: ["pending", "failed"] } },
    data: { status: "pending", attempts: 0, lastError: null, nextAttemptAt: now, sentAt: null },
  });
  return count === 1;
}

/** Pending messages per channel and the oldest one's creation time: served by the (status, …) indexes. */
export async function countPendingMessages(): Promise<{ channel: string; count: number; oldest: Date | null }[]> {
  const prisma = await getPrisma();
  const rows = await prisma.outboxMessage.groupBy({ by: ["channel"], where: { status: "pending" }, _count: { _all: true }, _min: { createdAt: true } });
  return rows.map((r) => ({ channel: r.channel, count: r._count._all, oldest: r._min.createdAt }));
}

/** Messages that ran out of attempts since `since`: the (status, created_at) index's range. */
export async function countFailedMessages(since: Date): Promise<number> {
  const prisma = await getPrisma();
  return prisma.outboxMessage.count({ where: { status: "failed", createdAt: { gte: since } } });
}
