/**
 * `derive` made once per object for as long as the object lives. For answers built from a cached
 * value: a cache hands out the same object until a change replaces it, so what is derived from it
 * (a listing, its JSON) stays right as long as the object is not changed in place, which nothing
 * does to a cached value.
 */
export function derivedOnce<K extends object, R>(derive: (from: K) => R): (from: K) => R {
  const derived = new WeakMap<K, R>();
  return (from) => {
    if (derived.has(from)) return derived.get(from) as R;
    const value = derive(from);
    derived.set(from, value);
    return value;
  };
}
