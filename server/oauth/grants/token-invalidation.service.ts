import { inTransaction, type TTx } from "../../db/index.ts";
import { exemptSessionStartedAfter, moveSessionCutoffs, moveUserCutoff } from "../tokens/token-cutoffs.repository.ts";
import { publishCutoffs, userWideCutoff } from "../tokens/token-cutoffs.ts";
import { deleteUnusedCodesOf } from "./authorization-codes.repository.ts";
import { revokeUserRefreshRows, type TGrantSelection } from "./refresh-tokens.repository.ts";

/*
 * Why cutoffs and not a list of token ids: access tokens are not stored, so "every token issued
 * before" can only be said as a time. Access tokens are checked against it in process (see
 * token-cutoffs.ts); refresh tokens are rows, revoked here so they cannot mint new access tokens.
 */

async function endGrants(userId: string, sel: TGrantSelection, tx: TTx): Promise<void> {
  await revokeUserRefreshRows(userId, sel, tx);
  await deleteUnusedCodesOf(userId, sel, tx);
}

/** Every token of the user issued before `at` fails from now on, except those of the sessions in `keep`. */
export async function invalidateUserTokens(userId: string, opts: { keepSessions?: string[]; at?: Date } = {}): Promise<void> {
  const at = opts.at ?? new Date();
  const keep = opts.keepSessions ?? [];
  await inTransaction(async (tx) => {
    await moveUserCutoff(userId, at, keep, tx);
    await endGrants(userId, { before: at, exceptSessions: keep }, tx);
  });
  await publishCutoffs(userId);
}

/** The tokens of some sessions of the user issued before `at` fail from now on. */
export async function invalidateSessionTokens(userId: string, sessionIds: string[], at = new Date()): Promise<void> {
  if (sessionIds.length === 0) return;
  await inTransaction(async (tx) => {
    await moveSessionCutoffs(userId, sessionIds, at, tx);
    await endGrants(userId, { before: at, onlySessions: sessionIds }, tx);
  });
  await publishCutoffs(userId);
}

/**
 * A session started at `startedAt`, after a user-wide cutoff of the very same second (a password
 * changed at this sign-in's own step, just before the session): its tokens carry an `iat` of whole
 * seconds, so they would count as issued before the cutoff and fail at once (token-cutoffs.ts). It
 * gets a cutoff of its own at the start of that second instead: it has no older token to keep out.
 * Nearly every session starts in another second than any cutoff, and costs only the cached read.
 */
export async function keepNewSessionClearOfCutoff(userId: string, sessionId: string, startedAt: Date): Promise<void> {
  const second = new Date(Math.floor(startedAt.getTime() / 1000) * 1000);
  const userWide = await userWideCutoff(userId);
  if (!userWide || userWide <= second || userWide > startedAt) return;
  if (await inTransaction((tx) => exemptSessionStartedAfter(userId, sessionId, second, startedAt, tx))) await publishCutoffs(userId);
}
