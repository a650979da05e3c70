import { AppError } from "../errors/app-error.ts";
import { passkeyAnswerKeys } from "./throttle-keys.ts";
import { giveBackAttempt, reserveSignInAttempt, settleFailedAttempt } from "./throttle.service.ts";

// A passkey answer on the sign-in pages (alone, or as the second factor), checked under the
// address's passkey counter: a refused answer stays counted, a passkey that signs in gives its slot
// back without starting anything over (so signing in with one's own passkey wipes no failures).

export type TPasskeyAnswerCheck<T> =
  | { ok: true; value: T }
  | { ok: false; refusal: "login.locked_out"; retryAfterS: number }
  | { ok: false; refusal: "login.account_locked" | "login.passkey_refused"; retryAfterS?: undefined };

/** Runs `verify` when the address may answer; its refusals (an AppError, a malformed answer) come back as a refusal code. */
export async function checkPasskeyAnswer<T>(ip: string | undefined, verify: () => Promise<T>): Promise<TPasskeyAnswerCheck<T>> {
  const keys = passkeyAnswerKeys(ip);
  const reserved = await reserveSignInAttempt(keys);
  if (!reserved.allowed) return { ok: false, refusal: "login.locked_out", retryAfterS: reserved.retryAfterS };
  let value: T;
  try {
    value = await verify();
  } catch (e) {
    await settleFailedAttempt(keys);
    if (e instanceof AppError && e.code === "login.account_locked") return { ok: false, refusal: "login.account_locked" };
    if (e instanceof AppError || (e instanceof Error && e.name === "ZodError")) return { ok: false, refusal: "login.passkey_refused" };
    throw e;
  }
  await giveBackAttempt(keys);
  return { ok: true, value };
}
