import { getPrisma } from "../db/index.ts";

export type TSignUpStep = "codes" | "done";
export type TSignUpFlowRow = {
  id: string;
  csrfHash: string;
  registrationContext: string;
  loginFlowId: string | null;
  clientId: string | null;
  step: TSignUpStep;
  expiresAt: Date;
};

const FLOW = { id: true, csrfHash: true, registrationContext: true, loginFlowId: true, clientId: true, step: true, expiresAt: true } as const;

export async function insertSignUpFlow(row: Omit<TSignUpFlowRow, "step">): Promise<void> {
  const prisma = await getPrisma();
  await prisma.signUpFlow.create({ data: row, select: { id: true } });
}

export async function findSignUpFlow(id: string): Promise<TSignUpFlowRow | null> {
  const prisma = await getPrisma();
  return prisma.signUpFlow.findUnique({ where: { id }, select: FLOW }) as Promise<TSignUpFlowRow | null>;
}

/** Ends a flow only from the codes step: of two submissions of the last code, one signs in. */
export async function finishSignUpFlow(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.signUpFlow.updateMany({ where: { id, step: "codes" }, data: { step: "done" } });
  return count === 1;
}

export async function deleteExpiredSignUpFlows(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.signUpFlow.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}
