import { getPrisma, type TTx } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";

export type TEventRow = {
  type: string;
  subject?: string;
  clientId?: string;
  ip?: string;
  userAgent?: string;
  params: Record<string, unknown>;
};

export async function insertEvent(row: TEventRow): Promise<void> {
  const prisma = await getPrisma();
  await prisma.securityEvent.create({ data: { ...row, params: row.params as Prisma.InputJsonObject }, select: { id: true } });
}

/** Events that belong to a change, written in its transaction. */
export async function insertEvents(rows: TEventRow[], tx: TTx): Promise<void> {
  if (rows.length) await tx.securityEvent.createMany({ data: rows.map((row) => ({ ...row, params: row.params as Prisma.InputJsonObject })) });
}

export type TEventRecord = TEventRow & { id: bigint; createdAt: Date };

/** Which events to read; every field narrows, none means the whole trail. */
export type TEventFilter = {
  subject?: string;
  /** Any of these accounts (a person searched by name or contact); wins over `subject`. */
  subjects?: string[];
  clientId?: string;
  ip?: string;
  types?: string[];
  from?: Date;
  to?: Date;
};

/** A position in the trail: the (createdAt, id) of the last event read. */
export type TEventKey = { createdAt: Date; id: bigint };

/**
 * One page of events, newest first, by the keyset (createdAt, id): stable while new events arrive,
 * and served by an index whichever filter leads, (subject | client_id | ip | type, created_at) or
 * (created_at, id) for the whole trail.
 */
export async function findEvents(q: TEventFilter & { before?: TEventKey; limit: number }): Promise<TEventRecord[]> {
  const prisma = await getPrisma();
  const rows = await prisma.securityEvent.findMany({
    where: {
      subject: q.subjects ? { in: q.subjects } : q.subject,
      clientId: q.clientId,
      ip: q.ip,
      // `lte` repeats what the OR below says: PostgreSQL cannot start an index scan at an OR, so
      // without it every later page would scan the index from the newest event down to the cursor.
      createdAt: { gte: q.from, lt: q.to, lte: q.before?.createdAt },
      ...(q.types ? { type: { in: q.types } } : {}),
      ...(q.before
        ? { OR: [{ createdAt: { lt: q.before.createdAt } }, { createdAt: q.before.createdAt, id: { lt: q.before.id } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit,
    select: { id: true, type: true, subject: true, clientId: true, ip: true, userAgent: true, params: true, createdAt: true },
  });
  return rows.map((r) => ({
    ...r,
    subject: r.subject ?? undefined,
    clientId: r.clientId ?? undefined,
    ip: r.ip ?? undefined,
    userAgent: r.userAgent ?? undefined,
    params: (r.params ?? {}) as Record<string, unknown>,
  }));
}

/**
 * How many events of each type in `types` fell in each hour or day (UTC) since `from`: a range of
 * the (type, created_at) index per type.
 */
export async function countEventsByBucket(types: string[], from: Date, bucket: "hour" | "day"): Promise<{ at: Date; type: string; count: number }[]> {
  const prisma = await getPrisma();
  return prisma.$queryRaw<{ at: Date; type: string; count: number }[]>`
    SELECT date_trunc(${bucket}, created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS at, type, count(*)::int AS count
    FROM security_events
    WHERE type = ANY(${types}) AND created_at >= ${from}
    GROUP BY 1, 2`;
}
