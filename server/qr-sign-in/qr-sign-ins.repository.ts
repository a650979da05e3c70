import { getPrisma, inTransaction } from "../db/index.ts";

export type TQrStatus = "waiting" | "confirmed" | "refused" | "used";
export type TQrRow = {
  id: string;
  flowId: string;
  status: TQrStatus;
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
  /** Of the confirming session: when and how it signed in. */
  authTime: Date | null;
  amr: string[];
};
/** A code as the confirming device finds it: with the flow it belongs to. */
export type TQrWithFlow = TQrRow & { flow: { clientId: string; step: string; expiresAt: Date } };

const QR = { id: true, flowId: true, status: true, userId: true, ip: true, userAgent: true, createdAt: true, expiresAt: true, decidedAt: true, authTime: true, amr: true } as const;

/** A new code for a flow, replacing the one it had (whatever became of it) in one step. */
export async function replaceQrSignIn(row: Omit<TQrRow, "status" | "userId" | "decidedAt" | "authTime" | "amr"> & { codeHash: string }): Promise<void> {
  await inTransaction(async (tx) => {
    await tx.qrSignIn.deleteMany({ where: { flowId: row.flowId } });
    await tx.qrSignIn.create({ data: { ...row, status: "waiting" }, select: { id: true } });
  });
}

export async function findQrOfFlow(flowId: string): Promise<TQrRow | null> {
  const prisma = await getPrisma();
  return prisma.qrSignIn.findUnique({ where: { flowId }, select: QR }) as Promise<TQrRow | null>;
}

export async function findQrByCodeHash(codeHash: string): Promise<TQrWithFlow | null> {
  const prisma = await getPrisma();
  const row = await prisma.qrSignIn.findUnique({
    where: { codeHash },
    select: { ...QR, flow: { select: { clientId: true, step: true, expiresAt: true } } },
  });
  return row as TQrWithFlow | null;
}

/**
 * Records a decision on a waiting, unexpired code. The condition is the lock: of parallel
 * decisions exactly one finds the code waiting, the others change nothing.
 */
export async function decideQr(id: string, to: "confirmed" | "refused", userId: string, now: Date, confirming?: { authTime: Date; amr: string[] }): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.qrSignIn.updateMany({
    where: { id, status: "waiting", expiresAt: { gt: now } },
    data: { status: to, userId, decidedAt: now, ...confirming },
  });
  return count === 1;
}

/** The waiting browser takes a confirmed code; a second reload (or tab) finds it taken. */
export async function takeConfirmedQr(id: string): Promise<boolean> {
  const prisma = await getPrisma();
  const { count } = await prisma.qrSignIn.updateMany({ where: { id, status: "confirmed" }, data: { status: "used" } });
  return count === 1;
}
