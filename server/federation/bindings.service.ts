import { recordEvents, type TEventActor } from "../audit/audit.service.ts";
import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { inTransaction } from "../db/index.ts";
import { tellAccountHolderOf } from "../notices/notices-by-id.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountOfSubject } from "../users/subject-param.ts";
import { toFederatedAccountV3, type TFederatedAccountV3 } from "./api/v3.ts";
import { bindAccount, findBindingsOf, lockUserShared, unbindAccount, type TBindingRow } from "./bindings.repository.ts";
import type { TProviderKey } from "./federation.schemas.ts";
import { lockProviderShared } from "./providers.repository.ts";
import { providerLabel, requireProvider } from "./providers.service.ts";

// What other capabilities read or change of this one's data: they come through here, never its repository.
export { findBoundUser } from "./bindings.repository.ts";

/*
 * Bindings of external accounts to users. The rules take the account id and who acts; the REST
 * adapters at the end find the account, the console calls the same functions (`note` names the
 * administrator). Every bind and unbind is a security event, written in the transaction of the change.
 */

export type TBindingKey = TProviderKey & { sid: string };

export async function bindingsOf(userId: string): Promise<TBindingRow[]> {
  return findBindingsOf(userId);
}

/**
 * Binds the external account to the user: a new binding, or the user's own again (an absent name keeps
 * the stored one). 404 for an unknown provider or account, 409 when another user holds the sid.
 */
export async function bindExternalAccount(userId: string, b: TBindingKey, userName: string | undefined, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const key = { fpType: b.fpType, fpName: b.fpName };
  const linked = await inTransaction(async (tx) => {
    // Both held until commit, so neither the provider nor the account can go from under the new row.
    if (!(await lockProviderShared(key, tx))) throw new AppError("federation.provider_not_found", { params: key });
    if (!(await lockUserShared(userId, tx))) throw new AppError("user.not_found", { params: { userId } });
    const { outcome } = await bindAccount(userId, { ...b, userName: userName ?? null }, tx);
    if (outcome === "taken") throw new AppError("federation.sid_bound", { params: { ...key, sid: b.sid } });
    const params = { ...note, provider: providerLabel(key), sid: b.sid, rebound: outcome === "updated", ...(userName !== undefined ? { userName } : {}) };
    await recordEvents([{ type: "user.fa_bound", actor: { ...actor, subject: userId }, params }], tx);
    return outcome;
  });
  if (linked !== "updated") await tellAccountHolderOf(userId, { kind: "external_linked", actor, detail: providerLabel(key) });
}

/** Removes the user's binding: 404 for an unknown provider, or when the user has no such binding. */
export async function unbindExternalAccount(userId: string, b: TBindingKey, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const key = { fpType: b.fpType, fpName: b.fpName };
  await requireProvider(key);
  await inTransaction(async (tx) => {
    if (!(await unbindAccount(userId, b, tx))) throw new AppError("federation.binding_not_found", { params: { ...key, sid: b.sid } });
    await recordEvents([{ type: "user.fa_unbound", actor: { ...actor, subject: userId }, params: { ...note, provider: providerLabel(key), sid: b.sid } }], tx);
  });
}

/** GET /api/v3/users/{subjectId}/fa */
export async function listFederatedAccounts(ctx: TRequestContext, subjectId: string): Promise<TFederatedAccountV3[]> {
  const account = await accountOfSubject(ctx, subjectId);
  return (await bindingsOf(account.id)).map(toFederatedAccountV3);
}

/** POST /api/v3/users/{subjectId}/fa/{fpType}/{fpName}/{sid} */
export async function bindFederatedAccount(ctx: TRequestContext, subjectId: string, b: TBindingKey, name: string | undefined): Promise<void> {
  // A sid in a path proves nothing: a user could claim someone else's external account and receive
  // that person's later "Sign in with …". Only administrators bind by sid; users go through the provider.
  if (ctx.actor.mode === "user") throw new AppError("federation.bind_proof_required");
  const account = await accountOfSubject(ctx, subjectId);
  await bindExternalAccount(account.id, b, name, eventActorOf(ctx));
}

/** DELETE /api/v3/users/{subjectId}/fa/{fpType}/{fpName}/{sid} */
export async function unbindFederatedAccount(ctx: TRequestContext, subjectId: string, b: TBindingKey): Promise<void> {
  // Removing the only way in of an account without a password locks its holder out: a factor change.
  await requireRecentAuth(ctx);
  const account = await accountOfSubject(ctx, subjectId);
  await unbindExternalAccount(account.id, b, eventActorOf(ctx));
}
