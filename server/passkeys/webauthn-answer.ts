import { decodeClientDataJSON } from "@simplewebauthn/server/helpers";
import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";

/**
 * The challenge an answer claims to answer, read from its clientDataJSON, so that it can be spent
 * before anything else is done with the answer. An answer that does not even decode answers nothing.
 */
export function claimedChallenge(clientDataJSON: string): string {
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    if (typeof challenge === "string" && challenge) return challenge;
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError("passkeys.challenge_unknown");
}

/**
 * What the library's verification gives, or a refusal: recorded as passkey.failed with the library's
 * reason (for the administrator; the person is told only that it did not verify).
 */
export async function verifiedOr<T>(verify: () => Promise<T | undefined>, refused: { actor: TEventActor; params: Record<string, unknown> }): Promise<T> {
  let result: T | undefined;
  let reason = "not verified";
  try {
    result = await verify();
  } catch (e) {
    reason = (e instanceof Error ? e.message : String(e)).slice(0, 200);
  }
  if (result !== undefined) return result;
  await recordEvent("passkey.failed", refused.actor, { ...refused.params, reason });
  throw new AppError("passkeys.not_verified");
}

/** An answer is a few hundred bytes; the form field may carry at most this much. */
const MAX_ANSWER = 16_384;

/** The answer a page's form carries as JSON text in one field; anything else (too long, not JSON) as undefined. */
export function answerFromField(raw: string | undefined): unknown {
  if (!raw || raw.length > MAX_ANSWER) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
