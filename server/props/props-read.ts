import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import type { TRequestContext } from "../http/request-context.ts";
import { serializedOnce, type JsonText } from "../http/json-text.ts";
import { getProps } from "./props.service.ts";

// The hot read of an account's properties (GET /api/v3/users/{subjectId}/props), and the one place its
// per-answer memo lives: the cached properties are serialized once (json-text.ts), and every read
// until a change sends that text.

/** The account's properties as the API answers them; from memory without a Promise when cached. */
export function propsAnswer(ctx: TRequestContext, subjectId: string): TMaybePromise<JsonText> {
  return andThen(getProps(ctx, subjectId), serializedOnce);
}
