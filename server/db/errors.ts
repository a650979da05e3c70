/**
 * True for a unique-constraint violation, however the driver adapter reports it. Services use it to
 * turn the race that a pre-check cannot close (two writers, one value) into the caller's 4xx.
 */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string; originalCode?: string } } | null;
  return err?.code === "P2002" || err?.cause?.originalCode === "23505" || err?.cause?.code === "23505";
}

/** Prisma could not get a connection for an interactive transaction within its maxWait. */
export function isTransactionStartTimeout(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  return err?.code === "P2028" && /unable to start a transaction/i.test(err.message ?? "");
}

/** True for a foreign-key violation (a row referenced by the write was deleted by a concurrent one). */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; cause?: { code?: string; originalCode?: string } } | null;
  return err?.code === "P2003" || err?.cause?.originalCode === "23503" || err?.cause?.code === "23503";
}

// What the database's absence looks like, however it surfaces: Prisma's codes (can't reach, timed out,
// connection closed), the pg adapter's error kinds, socket errors, and PostgreSQL's own codes for a
// server shutting down or starting up (57P0x), connection failures (08xxx) and a full server (53300).
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1017", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "53300"]);
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// node-postgres says these in words only, without a code.
const UNREACHABLE_MESSAGE = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i;

/**
 * True when `e` says the database cannot be reached (down, restarting, unreachable, full), rather
 * than that a query was wrong: the request gets 503 with Retry-After instead of a generic 500.
 */
export function isDatabaseUnreachable(e: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [e];
  while (pending.length && seen.size < 10) {
    const err = pending.shift() as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } } | null;
    if (!err || typeof err !== "object" || seen.has(err)) continue;
    seen.add(err);
    if (typeof err.code === "string" && UNREACHABLE_CODES.has(err.code)) return true;
    if (typeof err.kind === "string" && UNREACHABLE_KINDS.has(err.kind)) return true;
    if (typeof err.message === "string" && UNREACHABLE_MESSAGE.test(err.message)) return true;
    pending.push(err.cause, err.meta?.driverAdapterError);
  }
  return false;
}
