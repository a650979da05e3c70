/**
 * Freezes a value and everything it holds: plain objects, arrays, and the values of Maps and Sets
 * (whose own entries stay changeable: freezing does not reach them). Typed arrays and Buffers are
 * left as they are: a non-empty one cannot be frozen.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  if (value instanceof Map) for (const v of value.values()) deepFreeze(v);
  else if (value instanceof Set) for (const v of value) deepFreeze(v);
  else for (const v of Object.values(value)) deepFreeze(v);
  return value;
}
