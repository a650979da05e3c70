import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountIdOfSubject } from "../users/subject-param.ts";
import { listPasskeys, removeUserPasskey } from "./passkeys.service.ts";

/** The REST adapters of the passkey operations: they find the account and say who acts. */

export async function listPasskeysOfSubject(ctx: TRequestContext, subjectId: string) {
  const passkeys = await listPasskeys(await accountIdOfSubject(ctx, subjectId));
  return passkeys.map((p) => ({ ...p, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null }));
}

export async function deletePasskeyOfSubject(ctx: TRequestContext, subjectId: string, id: string): Promise<void> {
  await requireRecentAuth(ctx);
  // A user's own token acts as the holder; a system token as an administrator.
  await removeUserPasskey(await accountIdOfSubject(ctx, subjectId), id, eventActorOf(ctx), { by: ctx.actor.mode === "user" ? "holder" : "administrator" });
}
