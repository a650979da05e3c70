import { derivedOnce } from "../cache/derived-once.ts";

/** An answer's JSON, made already: a handler returns it for a body that many requests share. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * The JSON of `value`, made once for as long as the object lives: for an answer that the service
 * hands out unchanged to every request until a change replaces it (a cached rights listing, an
 * account's cached properties). Inside the server, serializing such an answer cost more than
 * reading it from the cache.
 */
export const serializedOnce = derivedOnce(toJsonText);

/** `value` serialized now, as an answer a handler may return. */
export function toJsonText(value: unknown): JsonText {
  return new JsonText(JSON.stringify(value));
}
