import { getPrisma } from "../db/index.ts";
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
