import { getPrisma } from "../db/index.ts";
import type { Prisma } from "../db/generated/client.ts";

export type TFlowStep = "credentials" | "second_factor" | "recovery_second_factor" | "password_change" | "recovery_password" | "consent" | "done" | "refused" | "answered";
export type TFlowRow = {
  id: string;
  clientId: string;
  request: unknown;
  step: TFlowStep;
  csrfHash: string;
  userId: string | null;
  sessionId: string | null;
  amr: string[];
  /** The sealed external account the flow holds while it waits to be linked or registered. */
  externalIdentity: string | null;
  expiresAt: Date;
  createdAt: Date;
};

const FLOW = { id: true, clientId: true, request: true, step: true, csrfHash: true, userId: true, sessionId: true, amr: true, externalIdentity: true, expiresAt: true, createdAt: true } as const;

export async function insertFlow(row: Omit<TFlowRow, "request" | "createdAt" | "amr" | "externalIdentity"> & { request: object }): Promise<void> {
  const prisma = await getPrisma();
  await prisma.loginFlow.create({ data: { ...row, request: row.request as Prisma.InputJsonObject }, select: { id: true } });
}

export async function findFlow(id: string): Promise<TFlowRow | null> {
  const prisma = await getPrisma();
  return prisma.loginFlow.findUnique({ where: { id }, select: FLOW }) as Promise<TFlowRow | null>;
}

/** Moves a flow on only from the step it is expected at: of two submissions of one form, one wins. */
export async function advanceFlow(id: string, from: TFlowStep, to: TFlowStep, data: { userId?: string; sessionId?: string; amr?: string[]; externalIdentity?: null } = {}): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.loginFlow.updateMany({ where: { id, step: from }, data: { step: to, ...data } });
  return count === 1;
}

export async function deleteExpiredFlows(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.loginFlow.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}

/** The sealed external account a flow holds while it waits to be linked or registered, or null. */
export async function findExternalIdentity(id: string): Promise<string | null> {
  const prisma = await getPrisma();
  return (await prisma.loginFlow.findUnique({ where: { id }, select: { externalIdentity: true } }))?.externalIdentity ?? null;
}

/** Stores the flow's waiting external account, while the flow is at its first step. */
export async function setExternalIdentity(id: string, sealed: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.loginFlow.updateMany({ where: { id, step: "credentials" }, data: { externalIdentity: sealed } });
  return count === 1;
}

/** Forgets the flow's external account, at whatever step the flow is (it was linked, or the sign-in ended). */
export async function forgetExternalIdentity(id: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.loginFlow.updateMany({ where: { id, externalIdentity: { not: null } }, data: { externalIdentity: null } });
}
