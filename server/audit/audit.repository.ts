import { getPrisma } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";

export type TEventRow = {
  type: string;
  subject?: string;
  clientId?: string;
  ip?: string;
  userAgent?: string;
  params: Prisma.InputJsonObject;
};

export async function insertEvent(row: TEventRow): Promise<void> {
  const prisma = await getPrisma();
  await prisma.securityEvent.create({ data: row, select: { id: true } });
}

export async function findEvents(filter: { type?: string; subject?: string; clientId?: string }, take = 50) {
  const prisma = await getPrisma();
  return prisma.securityEvent.findMany({
    where: filter,
    orderBy: { id: "desc" },
    take,
    select: { type: true, subject: true, clientId: true, ip: true, userAgent: true, params: true, createdAt: true },
  });
}
