import { getPrisma } from "../db/index.ts";

export type TSecurityQuestionRow = { question: string; answerHash: string };

export async function findSecurityQuestion(userId: string): Promise<TSecurityQuestionRow | null> {
  const prisma = await getPrisma();
  return prisma.securityQuestion.findUnique({ where: { userId }, select: { question: true, answerHash: true } });
}

/** Sets or replaces the question and the answer's hash. */
export async function upsertSecurityQuestion(userId: string, question: string, answerHash: string): Promise<void> {
  const prisma = await getPrisma();
  const now = new Date();
  await prisma.securityQuestion.upsert({
    where: { userId },
    create: { userId, question, answerHash, updatedAt: now },
    update: { question, answerHash, updatedAt: now },
    select: { userId: true },
  });
}

/** False when the account had none. */
export async function deleteSecurityQuestion(userId: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.securityQuestion.deleteMany({ where: { userId } });
  return count > 0;
}
