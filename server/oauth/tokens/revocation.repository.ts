import { getPrisma } from "../../db/index.ts";

export async function isTokenRevoked(jti: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.revokedToken.findUnique({ where: { jti }, select: { jti: true } })) !== null;
}

export async function insertRevokedToken(jti: string, expiresAt: Date): Promise<void> {
  const prisma = await getPrisma();
  await prisma.revokedToken.upsert({ where: { jti }, create: { jti, expiresAt }, update: {}, select: { jti: true } });
}
