import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { fixtureClient, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";

const postgres = inject("dbKind") === "postgres";
const SECRET_KEY = "sweep-test-secret-key-0123456789abcdef";

// A server of its own with the inactivity lock on: its in-process sweep locks what came due while
// it was not running, a few seconds after it starts. Accounts old enough need a database the test
// can write created_at into: PostgreSQL.
describe.runIf(postgres)("the in-process inactivity sweep", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let logFile: string;

  beforeAll(async () => {
    db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const env = { DATABASE_URL: db.url, IDP_SECRET_KEY: SECRET_KEY, IDP_ADMIN_PASSWORD: "sweep-admin-password", IDP_IMPORT: IMPORT_FIXTURE };
    await promisify(execFile)(process.execPath, ["scripts/idp.mjs", "migrate"], { env: { ...process.env, ...env } });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`INSERT INTO users (id, instance_id, created_at) VALUES
      ('sweep-old', 'sweep-old.x', now() - interval '400 days'),
      ('sweep-old-exempt', 'sweep-old-exempt.x', now() - interval '400 days'),
      ('sweep-new', 'sweep-new.x', now())`);
    await client.query(`INSERT INTO account_states (user_id, untouchable) VALUES ('sweep-old-exempt', true)`);
    await client.end();
    const dataDir = mkdtempSync(path.join(tmpdir(), "idp-sweep-"));
    logFile = path.join(dataDir, "server.log");
    server = await startServer({ env: { ...env, IDP_DATA_DIR: dataDir, IDP_INACTIVITY_LOCK_DAYS: "30" }, logFile });
  });

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("locks an account idle past the period within seconds of the start, and spares new and untouchable ones", async () => {
    const users = fixtureClient("users-app");
    const tokenRes = await fetch(`${server.baseUrl}/oauth/te`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(users.id, users.secret) },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "idp_api_sys_usec" }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const stateOf = async (sub: string) =>
      (await (await fetch(`${server.baseUrl}/api/v3/users/${sub}/state`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string; on?: number };

    await expect.poll(async () => (await stateOf("sweep-old")).name, { timeout: 15_000, interval: 250 }).toBe("inactivityLock");
    expect((await stateOf("sweep-old")).on).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(await stateOf("sweep-new")).toEqual({ name: "initial" });
    expect(await stateOf("sweep-old-exempt")).toEqual({ name: "untouchable" });
    expect(readFileSync(logFile, "utf8")).toMatch(/"msg":"inactive accounts locked","locked":1/);
  });
});
