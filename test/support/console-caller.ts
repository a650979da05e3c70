import type { Session } from "next-auth";
import type { TTestDatabase } from "./test-db.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { bootstrapAdmin } from "../../server/users/admin.service.ts";

export type TConsoleCaller = ReturnType<typeof appRouter.createCaller>;

/** The embedded administrator, and a tRPC caller signed in as it from this address and browser (what its events record). */
export async function adminCaller(t: TTestDatabase, ip: string, userAgent = "AdminBrowser"): Promise<{ admin: TConsoleCaller; adminId: string }> {
  await bootstrapAdmin({ password: "admin-password-1", embedded: true });
  const adminId = (await t.db.prisma.user.findUniqueOrThrow({ where: { login: "admin" } })).id;
  const admin = appRouter.createCaller({ session: { user: { id: adminId }, expires: "2999-01-01T00:00:00Z" } as Session, ip, userAgent });
  return { admin, adminId };
}
