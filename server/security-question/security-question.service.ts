import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { requireRecentAuth } from "../auth-modes/recent-auth.ts";
import { hashSecret } from "../crypto/password-hash.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { ACCOUNT_POLICY } from "../sign-in/throttle-policy.ts";
import { reserveSignInAttempt, settleFailedAttempt, settleSuccessfulAttempt } from "../sign-in/throttle.service.ts";
import { verifyPassword } from "../sign-in/verification-gate.ts";
import { accountOfSubjectOrInstance, cachedAccountOfSubject } from "../users/subject-param.ts";
import { normalizeAnswer } from "./answer-normalize.ts";
import type { TCheckSecurityQuestion, TSecurityQuestion, TSetSecurityQuestion } from "./security-question.schemas.ts";
import { deleteSecurityQuestion, findSecurityQuestion, upsertSecurityQuestion } from "./security-question.repository.ts";

/*
 * The rules take the account id and who acts; the REST adapters below only find the account. The
 * console and portal call the same functions (`note` adds to the event, e.g. the administrator).
 */

/**
 * Wrong answers are limited like wrong passwords: the account's own counter (5 attempts, then a
 * lockout of 30 s doubling up to 15 min, at most 100 an hour), separate from the sign-in counter so
 * that guessing one does not lock the other. Each check takes its slot before it is evaluated.
 */
const throttleKey = (userId: string) => [{ key: `secqsn:${userId}`, policy: ACCOUNT_POLICY }];

/** The account's question; 404 when it has none. */
export async function securityQuestionOf(userId: string): Promise<TSecurityQuestion> {
  const row = await findSecurityQuestion(userId);
  if (!row) throw new AppError("secqsn.not_set");
  return { question: row.question };
}

export async function hasSecurityQuestion(userId: string): Promise<boolean> {
  return (await findSecurityQuestion(userId)) !== null;
}

/** Sets or replaces the question; only the hash of the normalised answer is kept. */
export async function setSecurityQuestionOf(userId: string, input: TSetSecurityQuestion, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  const answerHash = await hashSecret(normalizeAnswer(input.answer));
  await upsertSecurityQuestion(userId, input.question, answerHash);
  await recordEvent("user.security_question_set", { ...actor, subject: userId }, note);
}

export async function removeSecurityQuestionOf(userId: string, actor: TEventActor, note: Record<string, unknown> = {}): Promise<void> {
  if (!(await deleteSecurityQuestion(userId))) throw new AppError("secqsn.not_set");
  await recordEvent("user.security_question_deleted", { ...actor, subject: userId }, note);
}

const wrong = (desc: string) => new AppError("secqsn.wrong_answer", { desc });

/**
 * Checks a question and its answer: returns when both match, throws wrong_security_answer saying
 * which did not (the question is no secret: GET …/secQsn shows it), or 429 while the account's
 * checks are locked out. A mismatched question counts as a failed check too.
 */
export async function checkSecurityAnswerOf(userId: string, input: TCheckSecurityQuestion, actor: TEventActor): Promise<void> {
  const who = { ...actor, subject: userId };
  const row = await findSecurityQuestion(userId);
  if (!row) throw wrong("security question not found");
  const keys = throttleKey(userId);
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) {
    await recordEvent("user.security_answer_failed", who, { reason: "locked_out", retryAfter: reserved.retryAfterS });
    throw new AppError("secqsn.locked_out", { headers: { "retry-after": String(reserved.retryAfterS) } });
  }
  const questionOk = normalizeAnswer(input.question) === normalizeAnswer(row.question);
  if (!questionOk || !(await verifyPassword(row.answerHash, normalizeAnswer(input.answer)))) {
    await settleFailedAttempt(keys);
    await recordEvent("user.security_answer_failed", who, { reason: questionOk ? "wrong_answer" : "wrong_question" });
    throw wrong(questionOk ? "security answer not match" : "security question not match");
  }
  await settleSuccessfulAttempt(keys[0]!.key, []);
  await recordEvent("user.security_answer_checked", who);
}

/** GET /api/v3/users/{subjectId}/secQsn */
export async function getSecurityQuestion(ctx: TRequestContext, subjectId: string): Promise<TSecurityQuestion> {
  return securityQuestionOf((await cachedAccountOfSubject(ctx, subjectId)).id);
}

/** POST /api/v3/users/{subjectId | instanceId}/secQsn */
export async function setSecurityQuestion(ctx: TRequestContext, segment: string, input: TSetSecurityQuestion): Promise<void> {
  await requireRecentAuth(ctx);
  const account = await accountOfSubjectOrInstance(ctx, segment);
  await setSecurityQuestionOf(account.id, input, eventActorOf(ctx));
}

/** DELETE /api/v3/users/{subjectId | instanceId}/secQsn */
export async function unsetSecurityQuestion(ctx: TRequestContext, segment: string): Promise<void> {
  await requireRecentAuth(ctx);
  const account = await accountOfSubjectOrInstance(ctx, segment);
  await removeSecurityQuestionOf(account.id, eventActorOf(ctx));
}

/** POST /api/v3/users/{subjectId | instanceId}/secQsn/check */
export async function checkSecurityQuestion(ctx: TRequestContext, segment: string, input: TCheckSecurityQuestion): Promise<void> {
  const account = await accountOfSubjectOrInstance(ctx, segment);
  await checkSecurityAnswerOf(account.id, input, eventActorOf(ctx));
}
