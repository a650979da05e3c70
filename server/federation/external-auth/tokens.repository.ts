import { getPrisma } from "../../db/index.ts";

// The only code that touches Prisma for stored external tokens. accessToken and refreshToken are sealed.

export type TTokenRow = { fpType: string; fpName: string; sid: string; accessToken: string; refreshToken: string | null; expiresAt: Date | null };
const TOKEN = { fpType: true, fpName: true, sid: true, accessToken: true, refreshToken: true, expiresAt: true } as const;

/**
 * Stores the tokens of a binding, when the binding is the user's (one statement, so a binding moved
 * or removed meanwhile stores nothing). A new grant without a refresh token keeps the stored one.
 */
export async function upsertTokens(userId: string, row: TTokenRow): Promise<boolean> {
  const prisma = await getPrisma();
  const n = await prisma.$executeRaw`
    INSERT INTO external_tokens (fp_type, fp_name, sid, user_id, access_token, refresh_token, expires_at, updated_at)
    SELECT fp_type, fp_name, sid, user_id, ${row.accessToken}, ${row.refreshToken}, ${row.expiresAt}, now()
      FROM federated_accounts WHERE fp_type = ${row.fpType} AND fp_name = ${row.fpName} AND sid = ${row.sid} AND user_id = ${userId}
    ON CONFLICT (fp_type, fp_name, sid) DO UPDATE SET user_id = EXCLUDED.user_id, access_token = EXCLUDED.access_token,
      refresh_token = COALESCE(EXCLUDED.refresh_token, external_tokens.refresh_token), expires_at = EXCLUDED.expires_at,
      refreshing_until = NULL, updated_at = now()`;
  return n > 0;
}

export async function findTokensOf(userId: string, provider: { fpType: string; fpName: string }): Promise<TTokenRow[]> {
  const prisma = await getPrisma();
  return prisma.externalToken.findMany({ where: { userId, fpType: provider.fpType, fpName: provider.fpName }, select: TOKEN, orderBy: { sid: "asc" } });
}

export async function findToken(key: { fpType: string; fpName: string; sid: string }): Promise<TTokenRow | null> {
  const prisma = await getPrisma();
  return prisma.externalToken.findUnique({ where: { fpType_fpName_sid: key }, select: TOKEN });
}

/**
 * Takes the refresh lease of a stale token: true for the one caller that may refresh it now. The row
 * must still hold the token the caller read (`accessToken`), else someone refreshed it already.
 */
export async function takeRefreshLease(key: { fpType: string; fpName: string; sid: string }, accessToken: string, leaseMs: number): Promise<boolean> {
  const prisma = await getPrisma();
  const n = await prisma.$executeRaw`
    UPDATE external_tokens SET refreshing_until = now() + ${leaseMs} * interval '1 millisecond'
     WHERE fp_type = ${key.fpType} AND fp_name = ${key.fpName} AND sid = ${key.sid} AND access_token = ${accessToken}
       AND (refreshing_until IS NULL OR refreshing_until < now())`;
  return n > 0;
}

/** Stores refreshed tokens and ends the lease; a refresh token the provider did not rotate stays. */
export async function saveRefreshed(row: TTokenRow): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$executeRaw`
    UPDATE external_tokens SET access_token = ${row.accessToken}, refresh_token = COALESCE(${row.refreshToken}, refresh_token),
      expires_at = ${row.expiresAt}, refreshing_until = NULL, updated_at = now()
     WHERE fp_type = ${row.fpType} AND fp_name = ${row.fpName} AND sid = ${row.sid}`;
}

export async function releaseRefreshLease(key: { fpType: string; fpName: string; sid: string }): Promise<void> {
  const prisma = await getPrisma();
  await prisma.externalToken.updateMany({ where: key, data: { refreshingUntil: null } });
}

/**
 * Drops the token whose refresh the provider refused, only while the row still holds it (`accessToken`,
 * sealed): tokens a new sign-in stored meanwhile stay. True when a row went.
 */
export async function deleteToken(key: { fpType: string; fpName: string; sid: string }, accessToken: string): Promise<boolean> {
  const prisma = await getPrisma();
  return (await prisma.externalToken.deleteMany({ where: { ...key, accessToken } })).count > 0;
}
