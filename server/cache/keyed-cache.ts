import { onChange } from "./change-bus.ts";
import { deepFreeze } from "./deep-freeze.ts";
import type { TMaybePromise } from "./maybe-promise.ts";

export type TKeyedCache<V> = {
  /**
   * The cached value of `key`, as it is, without a Promise; or the Promise of what `load` reads from
   * the database (a miss is cached too). The one accessor: a caller that can wait awaits it, a hot
   * read chains its steps with andThen() (maybe-promise.ts), so that a request served from memory
   * takes no turn of the microtask queue.
   */
  read(key: string, load: (key: string) => Promise<V>): TMaybePromise<V>;
};

/**
 * How long an entry may serve a change made behind the service's back (SQL by hand): every change
 * the service makes reaches every process through the bus at once, so this bounds nothing else.
 */
export const BACKSTOP_TTL_MS = 5 * 60_000;

// Every reader shares the object a cache holds, and what is derived from it (derived-once.ts) is kept
// as long as it lives: a change in place would be seen by every request and outlive the next load.
// Outside production (tests, `next dev`) cached values are frozen deeply, so such a change throws
// where it is made; production skips the walk on each load.
const FREEZE = process.env.NODE_ENV !== "production";

type TState<V> = {
  entries: Map<string, { value: V; expires: number }>;
  /** Counts invalidations, so a load that raced one is not stored. */
  epoch: number;
};

/**
 * Database reads by key, dropped through the change bus when `topic` publishes that key (or
 * everything). The TTL is only a backstop for a change made behind the service's back; the bus is
 * what keeps entries fresh. Held on globalThis, and registered with the bus once per process,
 * because Next bundles the code that reads a cache and the code that changes it separately.
 */
export function keyedCache<V>(topic: string, opts: { ttlMs: number; maxEntries: number }): TKeyedCache<V> {
  const states = caches();
  if (!states.has(topic)) states.set(topic, createState(topic));
  const state = states.get(topic) as TState<V>;
  const fresh = (id: string) => {
    const hit = state.entries.get(id);
    return hit && performance.now() < hit.expires ? hit : undefined;
  };
  const load = async (id: string, from: (key: string) => Promise<V>): Promise<V> => {
    const epoch = state.epoch;
    const value = await from(id);
    if (FREEZE) deepFreeze(value);
    // An invalidation during the load may concern exactly this row: the value read may be the old one.
    if (state.epoch === epoch) {
      if (state.entries.size >= opts.maxEntries) state.entries.delete(state.entries.keys().next().value!);
      // Each entry lives 75–100 % of the TTL: entries loaded together (a warm-up, a start) do not all
      // expire, and get read again from the database, in the same second.
      // On the monotonic clock, which a change of the wall clock does not move (and which Next's
      // Date, instrumented for prerendering, does not slow down).
      state.entries.set(id, { value, expires: performance.now() + opts.ttlMs * (0.75 + Math.random() / 4) });
    }
    return value;
  };
  return {
    read: (id, from) => {
      const hit = fresh(id);
      return hit ? hit.value : load(id, from);
    },
  };
}

const KEY = Symbol.for("idp.keyed-caches");
function caches(): Map<string, TState<unknown>> {
  const holder = globalThis as { [KEY]?: Map<string, TState<unknown>> };
  return (holder[KEY] ??= new Map());
}

function createState<V>(topic: string): TState<V> {
  const state: TState<V> = { entries: new Map(), epoch: 0 };
  onChange(topic, (id) => {
    state.epoch += 1;
    if (id === undefined) state.entries.clear();
    else state.entries.delete(id);
  });
  return state;
}
