import { AppError } from "../errors/app-error.ts";
import { CURRENT_SUBJECT } from "../http/authenticate.ts";
import type { TRequestContext } from "../http/request-context.ts";
import type { TAccount } from "./account.ts";
import { accountSnapshot } from "./account-snapshots.ts";
import { accountAtVersion, readAccount } from "./users.service.ts";

/** The account a `{subjectId}` names: "current" is the user-mode token's own user; 404 when none. */
export async function accountOfSubject(ctx: TRequestContext, subjectId: string): Promise<TAccount> {
  if (subjectId !== CURRENT_SUBJECT) return readAccount(subjectId);
  if (ctx.actor.mode === "user") return readAccount(ctx.actor.userId);
  throw new AppError("user.not_found", { desc: "a system token has no current user", params: { userId: subjectId } });
}

/** The id of the account a `{subjectId}` names, from the account cache: for hot reads that need only to know it exists. */
export async function accountIdOfSubject(ctx: TRequestContext, subjectId: string): Promise<string> {
  const sub = subjectId === CURRENT_SUBJECT && ctx.actor.mode === "user" ? ctx.actor.userId : subjectId;
  const snapshot = sub === CURRENT_SUBJECT ? null : await accountSnapshot(sub);
  if (!snapshot) throw new AppError("user.not_found", { desc: sub === CURRENT_SUBJECT ? "a system token has no current user" : undefined, params: { userId: subjectId } });
  return snapshot.account.id;
}

/** The account an `{instanceId}` names at its current version; in user mode it must be the token's user. */
export async function accountOfInstance(ctx: TRequestContext, instanceId: string): Promise<TAccount> {
  const account = await accountAtVersion(instanceId);
  if (ctx.actor.mode === "user" && account.id !== ctx.actor.userId) throw new AppError("auth.wrong_subject");
  return account;
}
