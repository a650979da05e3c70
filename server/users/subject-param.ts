import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { AppError } from "../errors/app-error.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { subjectOfInstance, type TAccount } from "./account.ts";
import { accountSnapshot } from "./account-snapshots.ts";
import { findAccount } from "./users.repository.ts";
import { accountAtVersion, readAccount } from "./users.service.ts";

// A `{subjectId}` of "current" has become the token's own user in the request core
// (server/http/request-core.ts) before any of these run.

/** The account a `{subjectId}` names; 404 when none. */
export async function accountOfSubject(_ctx: TRequestContext, subjectId: string): Promise<TAccount> {
  return readAccount(subjectId);
}

/**
 * As accountOfSubject, but from the account cache (no query in steady state): for hot reads that only
 * need the account to exist (its state, properties, security question), not a consistent read.
 */
export function cachedAccountOfSubject(_ctx: TRequestContext, subjectId: string): TMaybePromise<TAccount> {
  return andThen(accountSnapshot(subjectId), (snapshot) => {
    if (!snapshot) throw new AppError("user.not_found", { params: { userId: subjectId } });
    return snapshot.account;
  });
}

/** The id of the account a `{subjectId}` names, from the account cache: for hot reads that need only to know it exists. */
export function accountIdOfSubject(ctx: TRequestContext, subjectId: string): TMaybePromise<string> {
  return andThen(cachedAccountOfSubject(ctx, subjectId), (account) => account.id);
}

/** The account an `{instanceId}` names at its current version; in user mode it must be the token's user. */
export async function accountOfInstance(ctx: TRequestContext, instanceId: string): Promise<TAccount> {
  const account = await accountAtVersion(instanceId);
  if (ctx.actor.mode === "user" && account.id !== ctx.actor.userId) throw new AppError("auth.wrong_subject");
  return account;
}

/**
 * The account a segment names that the contract allows to be either (`/users/{subjectId}/secQsn` and,
 * in user mode, `/users/{instanceId}/secQsn`): a version id of an existing account is taken as one
 * (a stale one is refused with 409), anything else as a subject. In user mode it must be the token's user.
 */
export async function accountOfSubjectOrInstance(ctx: TRequestContext, segment: string): Promise<TAccount> {
  const sub = subjectOfInstance(segment);
  if (sub !== undefined && (await findAccount(sub))) return accountOfInstance(ctx, segment);
  const account = await accountOfSubject(ctx, segment);
  if (ctx.actor.mode === "user" && account.id !== ctx.actor.userId) throw new AppError("auth.wrong_subject");
  return account;
}
