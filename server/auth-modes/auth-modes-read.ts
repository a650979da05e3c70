import { derivedOnce } from "../cache/derived-once.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { toJsonText, type JsonText } from "../http/json-text.ts";
import { accountIdOfSubject } from "../users/subject-param.ts";
import { readAuthModes, toAuthModesV3, type TAuthModes } from "./auth-modes.service.ts";

// The hot read of an account's authentication modes (GET /api/v3/users/{subjectId}/auth), and the one
// place its per-answer memo lives: the answer is made once per cached modes (derived-once.ts), and
// every read until a change sends it as it is.
const answerOfModes = derivedOnce((modes: TAuthModes) => toJsonText(toAuthModesV3(modes)));

/** The account's modes as the API answers them; from memory without a Promise when cached. */
export function authModesAnswer(ctx: TRequestContext, subjectId: string): TMaybePromise<JsonText> {
  return andThen(andThen(accountIdOfSubject(ctx, subjectId), readAuthModes), answerOfModes);
}
