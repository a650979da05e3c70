/**
 * A value a hot read found in process memory, or the Promise of one it has to load. Awaiting a value
 * still costs a turn of the microtask queue, and under Next every Promise also runs the async hooks
 * its AsyncLocalStorage needs: a cached read that awaits five times spends more on that than on its
 * own work. Steps chained with andThen() run at once when the step before had its value.
 */
export type TMaybePromise<T> = T | Promise<T>;

/** `next` applied to `value`: at once when it is a value, once it settles when it is a Promise. A throw in `next` is thrown (or rejects) likewise. */
export function andThen<T, R>(value: TMaybePromise<T>, next: (v: T) => TMaybePromise<R>): TMaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
