import { getPrisma } from "../db/index.ts";

export type TSignInCandidate = { id: string; login: string | null; passwordHash: string | null; locked: boolean; matchedBy: "sub" | "login" | "email" | "phone" };

/**
 * Accounts an identifier may name, in one query: by sub, by the administrator's login, by e-mail or
 * by phone (values as the index stores them: e-mail lower-cased, phone 7XXXXXXXXXX).
 */
export async function findSignInCandidates(ident: { text: string; email?: string; phone?: string }): Promise<TSignInCandidate[]> {
  const prisma = await getPrisma();
  const byValue = [
    ...(ident.email ? [{ attr: "email", value: ident.email }] : []),
    ...(ident.phone ? [{ attr: "phone_number", value: ident.phone }] : []),
  ];
  const rows = await prisma.user.findMany({
    where: { OR: [{ id: ident.text }, { login: ident.text }, ...(byValue.length ? [{ attrValues: { some: { OR: byValue } } }] : [])] },
    select: { id: true, login: true, passwordHash: true, locked: true },
    take: 4,
  });
  return rows.map((r) => ({
    ...r,
    matchedBy: r.id === ident.text ? "sub" : r.login === ident.text ? "login" : ident.email ? "email" : "phone",
  }));
}
