import { getPrisma } from "../db/index.ts";

/**
 * codes: waiting for the contacts' codes; passkey: the account exists and waits for its passkey;
 * registering: one answer is being judged (parallel answers wait their turn or are refused); done.
 */
export type TSignUpStep = "codes" | "passkey" | "registering" | "done";
export type TSignUpFlowRow = {
  id: string;
  csrfHash: string;
  registrationContext: string;
  loginFlowId: string | null;
  clientId: string | null;
  step: TSignUpStep;
  withPasskey: boolean;
  /** The account, once the codes created it and it waits for its passkey. */
  userId: string | null;
  expiresAt: Date;
};

const FLOW = { id: true, csrfHash: true, registrationContext: true, loginFlowId: true, clientId: true, step: true, withPasskey: true, userId: true, expiresAt: true } as const;

export async function insertSignUpFlow(row: Omit<TSignUpFlowRow, "step" | "userId">): Promise<void> {
  const prisma = await getPrisma();
  await prisma.signUpFlow.create({ data: row, select: { id: true } });
}

export async function findSignUpFlow(id: string): Promise<TSignUpFlowRow | null> {
  const prisma = await getPrisma();
  return prisma.signUpFlow.findUnique({ where: { id }, select: FLOW }) as Promise<TSignUpFlowRow | null>;
}

/** Ends a flow only from the step it is at: of two submissions of the last code (or passkey), one signs in. */
export async function finishSignUpFlow(id: string, from: "codes" | "registering" = "codes"): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.signUpFlow.updateMany({ where: { id, step: from }, data: { step: "done" } });
  return count === 1;
}

/** The codes created the account: the flow now waits for its passkey (of two submissions of the last code, one goes on). */
export async function awaitPasskey(id: string, userId: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.signUpFlow.updateMany({ where: { id, step: "codes", withPasskey: true }, data: { step: "passkey", userId } });
  return count === 1;
}

export async function deleteExpiredSignUpFlows(before: Date): Promise<number> {
  const prisma = await getPrisma();
  return (await prisma.signUpFlow.deleteMany({ where: { expiresAt: { lt: before } } })).count;
}

/** Takes the passkey step for one answer: of parallel answers, one is judged at a time. */
export async function claimPasskeyStep(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.signUpFlow.updateMany({ where: { id, step: "passkey" }, data: { step: "registering" } });
  return count === 1;
}

/** Gives the passkey step back after a refused answer, for another try. */
export async function releasePasskeyStep(id: string): Promise<void> {
  const prisma = await getPrisma();
  await prisma.signUpFlow.updateMany({ where: { id, step: "registering" }, data: { step: "passkey" } });
}
