import { getPrisma } from "../db/index.ts";

export async function findUserByLogin(login: string) {
  const prisma = await getPrisma();
  return prisma.user.findUnique({
    where: { login },
    select: { id: true, login: true, passwordHash: true, roles: true, locked: true },
  });
}

export async function findUserById(id: string) {
  const prisma = await getPrisma();
  return prisma.user.findUnique({ where: { id }, select: { id: true, login: true, roles: true, locked: true } });
}

export async function insertUser(data: { id: string; login: string; passwordHash: string; roles: string[]; instanceId: string }) {
  const prisma = await getPrisma();
  await prisma.user.create({ data, select: { id: true } });
}
