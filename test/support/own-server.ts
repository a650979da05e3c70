import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { IMPORT_FIXTURE } from "./fixtures.ts";

type TServer = Awaited<ReturnType<typeof startServer>>;

/**
 * A server of the suite's build started for one describe block, with settings of its own (`env`),
 * the suite's import fixture and, on the PostgreSQL run, a database of its own; stopped and dropped
 * afterwards. Returns a getter: the server exists once beforeAll ran.
 */
export function serverOfItsOwn(name: string, env: Record<string, string>): () => TServer {
  let server: TServer | undefined;
  let dataDir: string | undefined;
  let db: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), `idp-${name}-`));
    const all: Record<string, string> = { IDP_DATA_DIR: dataDir, IDP_IMPORT: IMPORT_FIXTURE, IDP_ADMIN_PASSWORD: `${name}-admin-password`, ...env };
    if (inject("dbKind") === "postgres") {
      db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
      Object.assign(all, { DATABASE_URL: db.url, IDP_SECRET_KEY: `${name}-test-secret-key-0123456789abcdef` });
    }
    server = await startServer({ env: all });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => server!;
}
