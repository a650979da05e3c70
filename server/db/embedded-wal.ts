import type { PGlite } from "@electric-sql/pglite";

/*
 * PGlite (0.4) hangs for good, spinning at 100% CPU, once the WAL written since the last checkpoint
 * reaches the automatic checkpoint threshold (~540 MB with the default max_wal_size): single-process
 * Postgres waits for a checkpointer that does not exist. Measured: a bulk load stopped at the 35th
 * WAL segment every time; an explicit CHECKPOINT runs inline in a few tens of ms and recycles the
 * WAL. So the embedded database checkpoints itself long before that threshold: on a timer for a
 * running server, and after every batch of a bulk load (whose queries never yield to timers).
 */

/** WAL written since the last checkpoint that makes the next check run one. */
const CHECKPOINT_AFTER_BYTES = 64 * 1024 * 1024;
const CHECK_INTERVAL_MS = 10_000;

export type TWalGuard = { checkpointIfDue(): Promise<void>; stop(): void };

export function guardEmbeddedWal(pglite: PGlite, afterBytes = CHECKPOINT_AFTER_BYTES): TWalGuard {
  const checkpointIfDue = async () => {
    const { rows } = await pglite.query<{ pending: string }>(
      "SELECT (pg_current_wal_insert_lsn() - redo_lsn)::text AS pending FROM pg_control_checkpoint()",
    );
    if (Number(rows[0]?.pending ?? 0) > afterBytes) await pglite.exec("CHECKPOINT");
  };
  // A failed check (the database closing, a transaction in the way) is retried at the next tick.
  const timer = setInterval(() => void checkpointIfDue().catch(() => undefined), CHECK_INTERVAL_MS).unref();
  return { checkpointIfDue, stop: () => clearInterval(timer) };
}
