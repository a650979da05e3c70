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
  type TErr = { name?: unknown; code?: unknown; kind?: unknown; message?: unknown; severity?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  const chain: TErr[] = [];
  for (const pending: unknown[] = [e]; pending.length && chain.length < 10; ) {
    const err = pending.shift() as TErr | null;
    if (!err || typeof err !== "object" || chain.includes(err)) continue;
    chain.push(err);
    pending.push(err.cause, err.meta?.driverAdapterError);
  }
  // Only an error that comes from the database's client says anything about the database: a socket
  // error of some other request (a provider, a webhook) that escaped is a bug, not an outage.
  const fromDatabase = chain.some((x) => (typeof x.name === "string" && /^(PrismaClient|DriverAdapterError)/.test(x.name)) || x.meta?.driverAdapterError !== undefined || typeof x.severity === "string" || typeof x.kind === "string");
  return (
    fromDatabase &&
    chain.some((x) => (typeof x.code === "string" && UNREACHABLE_CODES.has(x.code)) || (typeof x.kind === "string" && UNREACHABLE_KINDS.has(x.kind)) || (typeof x.message === "string" && UNREACHABLE_MESSAGE.test(x.message)))
  );
}
