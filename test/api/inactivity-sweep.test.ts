import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import argon2 from "argon2";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { alertOf, Browser } from "../support/browser.ts";
import { fixtureClient, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";
import { webAuthorization } from "../support/oidc.ts";

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
    // An idle account with a password: its sign-in is refused once the password was right.
    await client.query(`INSERT INTO users (id, instance_id, created_at, password_hash) VALUES ('sweep-idle', 'sweep-idle.x', now() - interval '400 days', $1)`, [
      await argon2.hash("idle-account-password", { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 }),
    ]);
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

  // sweep-old and sweep-idle are due; the others not.
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
    expect(readFileSync(logFile, "utf8")).toMatch(/"msg":"inactive accounts locked","locked":2/);
  });

  it("refuses the sign-in of an idle account once its password was right, and a wrong password as usual", async () => {
    const browser = new Browser({ "x-forwarded-for": "192.0.2.77", "accept-language": "en" }, server.baseUrl);
    const signIn = async (password: string) => {
      const form = await browser.open(webAuthorization({ scope: "openid" }, server.baseUrl).url);
      return browser.submit(form, { identifier: "sweep-idle", password });
    };
    const right = await signIn("idle-account-password");
    expect(right.status).toBe(403);
    expect(alertOf(right.text)).toContain("locked after a long time without signing in");
    expect(browser.cookies.has("idp_session")).toBe(false);
    const wrong = await signIn("not-the-password");
    expect(wrong.status).toBe(400);
    expect(alertOf(wrong.text)).toBe("Wrong username or password.");
  });
});
