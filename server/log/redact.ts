// Keys whose values are secrets wherever they appear. Matching is on the key name, case-insensitive,
// so a new field called e.g. `client_secret` or `otpCode` is covered without touching this list.
const SECRET_KEY = /pass(word)?|pswd|secret|token|authorization|cookie|otp|code|answer|seed|credential|private/i;

// A yes or no holds no secret (needPasswordChange, passwordNeedsSecondFactor): kept, so that a
// security event says which way a flag went. Numbers are not kept: a code can be one.
const hidden = (k: string, v: unknown) => SECRET_KEY.test(k) && typeof v !== "boolean";

/** Returns a copy of value with every secret-named field replaced by "[redacted]" (but yes/no flags). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hidden(k, v) ? "[redacted]" : redact(v, depth + 1)]));
}

/**
 * Copies a record's fields into `target` as redact() would copy them: what every log line does with
 * its fields, without the intermediate copy.
 */
export function redactInto(target: Record<string, unknown>, fields: Record<string, unknown>): void {
  for (const k of Object.keys(fields)) target[k] = hidden(k, fields[k]) ? "[redacted]" : redact(fields[k], 1);
}
