import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, Socket, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { MAX_PARALLEL_HASHES } from "../../server/crypto/hash-parallelism.mjs";
import { fixtureClient, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";
import { base, tokenRequest } from "../support/http.ts";

const postgres = inject("dbKind") === "postgres";

function idp(args: string[], env: Record<string, string | undefined>) {
  return spawnSync(process.execPath, ["scripts/idp.mjs", ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
}

/** Starts a server expected to refuse to start; resolves with what it printed. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const error = await startServer({ env, timeoutMs: 60_000 }).then(
    async (s) => {
      await s.stop();
      return undefined;
    },
    (e: Error) => e,
  );
  expect(error, "the server started although it should not have").toBeInstanceOf(Error);
  return error!.message;
}

describe("start-up refusals", () => {
  it.skipIf(postgres)("refuses an invalid IDP_IMPORT document, naming each problem's JSON path", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "idp-badimport-"));
    const doc = path.join(dir, "clients.json");
    writeFileSync(doc, JSON.stringify({ clients: [{ id: "a", name: "A", secret: "short", scopes: ["x y"] }] }));
    const out = await failedStart({ IDP_DATA_DIR: dir, IDP_IMPORT: doc, IDP_ADMIN_PASSWORD: "whatever-password" });
    expect(out).toMatch(/server exited with 1/);
    expect(out).toContain(`idp: cannot start: IDP_IMPORT: ${doc} is refused: $.clients[0].secret must be at least 8 characters; $.clients[0].scopes[0]`);
  });

  it.runIf(postgres)("requires IDP_ADMIN_PASSWORD to create the first administrator on PostgreSQL", async () => {
    const db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    try {
      const out = await failedStart({
        DATABASE_URL: db.url,
        IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef",
        IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-noadmin-")),
      });
      expect(out).toContain("idp: cannot start: IDP_ADMIN_PASSWORD: is required to create the first administrator on PostgreSQL");
    } finally {
      await db.drop();
    }
  });
});

describe("commands", () => {
  it("refuses to start on a bad variable with one line naming it", () => {
    const r = idp(["check-config"], { IDP_ACCESS_TOKEN_TTL: "soon" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('idp: IDP_ACCESS_TOKEN_TTL: must be a whole number between 60 and 86400 (got "soon")');
  });

  it.skipIf(postgres)("keeps a second process away from the embedded database the server holds", () => {
    const r = idp(["import", IMPORT_FIXTURE], { IDP_DATA_DIR: inject("dataDir") });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the embedded database in .* is in use by process \d+/);
  });

  it.runIf(postgres)("imports idempotently from the command line and refuses an invalid file whole", async () => {
    const env = { DATABASE_URL: inject("databaseUrl"), IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef" };
    const dir = mkdtempSync(path.join(tmpdir(), "idp-import-"));
    const doc = path.join(dir, "clients.json");
    writeFileSync(doc, JSON.stringify({ clients: [{ id: "cli-app", name: "CLI", secret: "cli-secret-123", scopes: ["idp_api_sys_users"] }] }));
    const askForToken = async () => (await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["cli-app", "cli-secret-123"] })).status;
    // The running server now caches "no such client".
    expect(await askForToken()).toBe(401);
    const first = idp(["import", doc], env);
    expect(first.stdout).toContain("clients: 1 created, 0 updated, 0 unchanged");
    // The command's process told the server, which dropped its cached miss.
    await expect.poll(askForToken, { timeout: 1_000, interval: 50 }).toBe(200);
    expect(idp(["import", doc], env).stdout).toContain("clients: 0 created, 0 updated, 1 unchanged");

    writeFileSync(doc, JSON.stringify({ clients: [{ id: "cli-app-2", name: "ok", secret: "cli-secret-123", scopes: [] }, { id: "x y", scopes: ["a"] }] }));
    const bad = idp(["import", doc], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("$.clients[1].id");
    expect(bad.stderr).toContain("$.clients[1].secret");
    const db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    try {
      expect((await db.query("SELECT id FROM clients WHERE id = 'cli-app-2'")).rows).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it.runIf(postgres)("records failed client authentication as a security event without the secret", async () => {
    await tokenRequest({ grant_type: "client_credentials", scope: "idp_api_sys_users" }, { basic: ["post-app", "not-the-secret-42"] });
    const db = new pg.Client({ connectionString: inject("databaseUrl") });
    await db.connect();
    try {
      const { rows } = await db.query("SELECT type, client_id, params FROM security_events WHERE type = 'client.auth_failed' AND client_id = 'post-app' ORDER BY id DESC LIMIT 1");
      expect(rows[0]).toEqual({ type: "client.auth_failed", client_id: "post-app", params: { reason: "bad_secret", method: "client_secret_basic" } });
      expect(JSON.stringify((await db.query("SELECT * FROM security_events")).rows)).not.toContain("not-the-secret-42");
      const stored = (await db.query("SELECT secret_hash FROM clients WHERE id = 'post-app'")).rows[0].secret_hash;
      expect(stored).toMatch(/^\$argon2id\$/);
      const keys = (await db.query("SELECT private_key_enc FROM signing_keys")).rows;
      expect(keys[0].private_key_enc).toMatch(/^v2\.[A-Za-z0-9_-]{11}\./);
      expect(keys[0].private_key_enc).not.toContain("PRIVATE KEY");
    } finally {
      await db.end();
    }
  });
});

describe.skipIf(postgres)("libuv's thread pool", () => {
  /** A started server's threads (Linux), its "listening" line's threadPool, after it signed a token. */
  async function threadsOf(env: Record<string, string>): Promise<{ threads: number; logged: number }> {
    const server = await startServer({ env: { IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-pool-")), IDP_IMPORT: IMPORT_FIXTURE, IDP_ADMIN_PASSWORD: "thread-pool-admin-password", ...env } });
    try {
      const svc = fixtureClient("svc-app");
      const grant = await fetch(`${server.baseUrl}/oauth/te`, { method: "POST", headers: { authorization: oauthBasic(svc.id, svc.secret), "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials&scope=idp_api_sys_users" });
      expect(grant.status).toBe(200);
      const line = JSON.parse(server.output().split("\n").find((l) => l.includes('"msg":"listening"'))!) as { threadPool: number };
      return { threads: readdirSync(`/proc/${server.pid}/task`).length, logged: line.threadPool };
    } finally {
      await server.stop();
    }
  }

  it("has four threads beyond the password hashes' limit, or what UV_THREADPOOL_SIZE says", async () => {
    const byDefault = await threadsOf({});
    expect(byDefault.logged).toBe(MAX_PARALLEL_HASHES + 4);
    const larger = await threadsOf({ UV_THREADPOOL_SIZE: String(MAX_PARALLEL_HASHES + 7) });
    expect(larger.logged).toBe(MAX_PARALLEL_HASHES + 7);
    // The threads really run: the same server with three more pool threads has three more threads.
    expect(larger.threads - byDefault.threads).toBe(3);
    // Two servers started one after the other, each on a new data directory: beside the other
    // database's suite on two cores, that took more than the default 30 s once (2026-11-23).
  }, 120_000);
});

/** A loopback TCP proxy to PostgreSQL that the test can cut, to make the database unreachable. */
async function pgProxy(target: URL): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = new Socket().connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe.runIf(postgres)("readiness", () => {
  it("answers 503 with a reason while the database is unreachable", async () => {
    const url = new URL(inject("databaseUrl"));
    const proxy = await pgProxy(url);
    const viaProxy = new URL(url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const server = await startServer({
      env: {
        DATABASE_URL: viaProxy.toString(),
        IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef",
        IDP_ADMIN_PASSWORD: "irrelevant-password",
        IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-ready-")),
        // Another instance of the suite's service: one public URL, else its start would re-register
        // the console's and portal's redirect URIs under its own address (builtin-clients.ts).
        IDP_PUBLIC_URL: new URL(base()).origin,
      },
    });
    try {
      expect((await fetch(`${server.baseUrl}/health/ready`)).status).toBe(200);
      proxy.cut();
      const down = await fetch(`${server.baseUrl}/health/ready`);
      expect(down.status).toBe(503);
      const body = await down.json();
      expect(body.status).toBe("unavailable");
      expect(body.reason).toMatch(/^database unreachable: /);
      expect(body.reason).not.toContain("api-test-secret");
      expect((await fetch(`${server.baseUrl}/health/live`)).status).toBe(200);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});
