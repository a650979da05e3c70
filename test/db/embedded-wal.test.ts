import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardEmbeddedWal } from "../../server/db/embedded-wal.ts";

// The guard is what keeps PGlite below the WAL volume at which it hangs (see embedded-wal.ts); a
// test cannot wait for the hang itself (~540 MB), so it checks the guard's effect on a small scale.
describe("embedded WAL guard", () => {
  let pglite: PGlite;
  const walSinceCheckpoint = async () =>
    Number((await pglite.query<{ n: string }>("SELECT (pg_current_wal_insert_lsn() - redo_lsn)::text AS n FROM pg_control_checkpoint()")).rows[0]!.n);

  beforeAll(async () => {
    pglite = await PGlite.create(mkdtempSync(path.join(tmpdir(), "idp-wal-")));
    await pglite.exec("CREATE TABLE t (v text)");
  });
  afterAll(async () => pglite?.close());

  it("checkpoints once the WAL since the last checkpoint passes the threshold, and not before", async () => {
    const guard = guardEmbeddedWal(pglite, 1024 * 1024);
    try {
      await pglite.exec("CHECKPOINT");
      await pglite.query("INSERT INTO t SELECT repeat('x', 100) FROM generate_series(1, 1000)");
      const small = await walSinceCheckpoint();
      await guard.checkpointIfDue();
      expect(await walSinceCheckpoint()).toBeGreaterThanOrEqual(small);

      await pglite.query("INSERT INTO t SELECT repeat('x', 100) FROM generate_series(1, 20000)");
      expect(await walSinceCheckpoint()).toBeGreaterThan(1024 * 1024);
      await guard.checkpointIfDue();
      expect(await walSinceCheckpoint()).toBeLessThan(64 * 1024);
    } finally {
      guard.stop();
    }
  });
});
