import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { publishChange } from "../cache/change-bus.ts";
import { BACKSTOP_TTL_MS, keyedCache } from "../cache/keyed-cache.ts";
import { andThen, type TMaybePromise } from "../cache/maybe-promise.ts";
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { eventActorOf, type TRequestContext } from "../http/request-context.ts";
import { accountOfSubject, cachedAccountOfSubject } from "../users/subject-param.ts";
import { checkPropsChange } from "./props-change.ts";
import { applyPropsChange, findProps } from "./props.repository.ts";
import type { TProps } from "./props.schemas.ts";

// GET …/props is a hot read: held in process, dropped in every process through the change bus after a change.
const PROPS_TOPIC = "user-props";
const propsCache = keyedCache<TProps>(PROPS_TOPIC, { ttlMs: BACKSTOP_TTL_MS, maxEntries: 50_000 });

/** The account's properties ({} when it has none); from memory without a Promise when cached. */
export function propsOf(userId: string): TMaybePromise<TProps> {
  return propsCache.read(userId, findProps);
}

/**
 * Applies a change (already checked by checkPropsChange) and returns the properties after it. Over
 * the count limit nothing changes and the answer is input_error at `add`.
 */
export async function changePropsOf(userId: string, body: unknown, actor: TEventActor, note: Record<string, unknown> = {}): Promise<TProps> {
  const limits = getConfig().account.props;
  const change = checkPropsChange(body, limits);
  if (!change.add.length && !change.remove.length) return propsOf(userId);
  // Object.fromEntries defines own properties: a name such as "__proto__" stays a plain property.
  const next = await applyPropsChange(userId, Object.fromEntries(change.add), change.remove, limits.maxCount);
  if (!next) {
    throw new AppError("request.invalid_values", {
      items: [{ error: "wrong_value", desc: `an account may have at most ${limits.maxCount} properties`, pos: "add" }],
    });
  }
  await publishChange(PROPS_TOPIC, userId);
  await recordEvent("user.props_changed", { ...actor, subject: userId }, { added: change.add.map(([name]) => name), removed: change.remove, ...note });
  return next;
}

/** GET /api/v3/users/{subjectId}/props */
export function getProps(ctx: TRequestContext, subjectId: string): TMaybePromise<TProps> {
  return andThen(cachedAccountOfSubject(ctx, subjectId), (account) => propsOf(account.id));
}

/** POST /api/v3/users/{subjectId}/props */
export async function changeProps(ctx: TRequestContext, subjectId: string, body: unknown): Promise<TProps> {
  const account = await accountOfSubject(ctx, subjectId);
  return changePropsOf(account.id, body, eventActorOf(ctx));
}
