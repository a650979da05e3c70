/**
 * `derive` made once per object for as long as the object lives. For answers built from a cached
 * value: a cache hands out the same object until a change replaces it, so what is derived from it
 * (a listing, its JSON) stays right as long as the object is not changed in place, which nothing
 * does to a cached value.
 */
export function derivedOnce<K extends object, R>(derive: (from: K) => R): (from: K) => R {
  const derived = new WeakMap<K, R>();
  return (from) => {
    // One lookup on the hot path; has() only for a derivation that is itself undefined.
    const held = derived.get(from);
    if (held !== undefined || derived.has(from)) return held as R;
    const value = derive(from);
    derived.set(from, value);
    return value;
  };
}

/**
 * `derive` made once per pair of objects, for as long as both live: for an answer that depends on two
 * cached values (an account and the caller's client's view of the attributes), either of which a
 * change may replace on its own.
 */
export function derivedOncePer<A extends object, B extends object, R>(derive: (a: A, b: B) => R): (a: A, b: B) => R {
  const byFirst = new WeakMap<A, WeakMap<B, R>>();
  return (a, b) => {
    let bySecond = byFirst.get(a);
    if (bySecond === undefined) byFirst.set(a, (bySecond = new WeakMap()));
    const held = bySecond.get(b);
    if (held !== undefined || bySecond.has(b)) return held as R;
    const value = derive(a, b);
    bySecond.set(b, value);
    return value;
  };
}
