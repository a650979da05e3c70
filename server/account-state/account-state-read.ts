import { derivedOnce } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { serializedOnce, toJsonText, type JsonText } from "../http/json-text.ts";
import { cachedAccountOfSubject } from "../users/subject-param.ts";
import { isTimeless, viewOf, type TStateRow } from "./account-state-rules.ts";
import { stateRowOf } from "./account-state.service.ts";

// The hot read of an account's state (GET /api/v3/users/{subjectId}/state), and the one place its
// per-answer memos live: read on every request of some applications, and from memory without a
// Promise when cached (cache/maybe-promise.ts).

// A view that is the same at every moment (no lock due, no untouchable period running out) is made
// once per cached row (derived-once.ts), and so is its JSON: every read until a change sends it as it is.
const timelessAnswer = derivedOnce((s: TStateRow) => serializedOnce(viewOf(s, new Date())));

/** The account's state as the API answers it. */
export function accountStateAnswer(ctx: TRequestContext, subjectId: string): TMaybePromise<JsonText> {
  return andThen(cachedAccountOfSubject(ctx, subjectId), (account) =>
    andThen(stateRowOf(account.id), (state) => (isTimeless(state) ? timelessAnswer(state) : toJsonText(viewOf(state, new Date())))),
  );
}
