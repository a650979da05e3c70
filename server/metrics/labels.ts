/**
 * Label values of the service's metrics. Every series a label value creates lives until the process
 * ends, so values come from closed sets (the catalog's operations, status codes, the code's own
 * reason words), never from a request (raw paths, subjects, client ids, scopes).
 */

/** The operation as the catalog names it: method and path template, e.g. `GET /api/v3/users/{subjectId}`. */
export function operationLabel(op: { method: string; path: string } | undefined): string {
  // Answers written without a catalog operation share one value: the JSON 404 catch-alls, the 405s of
  // methods a route does not have, refused malformed URLs, and the sign-in pages (server/sign-in/pages).
  return op ? `${op.method} ${op.path}` : "other";
}

/** "2xx" … "5xx": the latency histogram's status label, so its buckets are not multiplied by every code. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}

// A word such as `bad_password` or `client_credentials`, or words joined by "+" (a multi-step sign-in's
// methods, `pwd+otp`); anything else is not a value our code chose.
const WORD = /^[a-z][a-z0-9_]*(\+[a-z][a-z0-9_]*)*$/;
const MAX_WORD = 40;

/**
 * Bounds a label whose values the code picks (sign-in methods and reasons, grant types): a value
 * that is not a plain word becomes "other", and so does every new value once `max` distinct ones
 * were seen, so a future caller passing something request-derived cannot grow the series without end.
 */
export function boundedLabel(max = 32): (value: unknown) => string {
  const seen = new Set<string>();
  return (value) => {
    if (typeof value !== "string" || value.length > MAX_WORD || !WORD.test(value)) return "other";
    if (seen.has(value)) return value;
    if (seen.size >= max) return "other";
    seen.add(value);
    return value;
  };
}
