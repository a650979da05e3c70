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
