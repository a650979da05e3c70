import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { unique } from "../support/accounts.ts";
import { fixtureClient, IMPORT_FIXTURE } from "../support/fixtures.ts";
import { api, tokenRequest, type TResult } from "../support/http.ts";
import { startRelay, type TRelay } from "../support/tcp-relay.ts";

/*
 * The database going away under a running server. On PostgreSQL the server reaches the database
 * through a TCP relay the test cuts and restores (the shared PostgreSQL itself stays up for the other
 * suites); on the embedded database the server is killed with SIGKILL in the middle of writes.
 */

const postgres = inject("dbKind") === "postgres";
type TServer = Awaited<ReturnType<typeof startServer>>;

async function tokenOf(server: TServer, clientId: string, scope: string): Promise<TResult> {
  return tokenRequest({ grant_type: "client_credentials", scope }, { basic: [clientId, fixtureClient(clientId).secret], origin: server.baseUrl });
}

async function register(server: TServer, token: string, sub: string): Promise<TResult> {
  return api("PUT", "/reg/api/v3/users", { token, origin: server.baseUrl, body: { user: { attrs: { sub, family_name: "Сбоев" } } } });
}

const readyStatus = async (server: TServer) => (await fetch(`${server.baseUrl}/health/ready`)).status;

describe.runIf(postgres)("PostgreSQL unreachable under a running server", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let relay: TRelay;
  let server: TServer;
  let dataDir: string;

  beforeAll(async () => {
    db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const direct = new URL(db.url);
    relay = await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughRelay = new URL(db.url);
    throughRelay.port = String(relay.port);
    dataDir = mkdtempSync(path.join(tmpdir(), "idp-outage-"));
    server = await startServer({
      env: { DATABASE_URL: throughRelay.toString(), IDP_SECRET_KEY: "outage-secret-key-0123456789abcdef", IDP_ADMIN_PASSWORD: "outage-admin-password", IDP_IMPORT: IMPORT_FIXTURE, IDP_DATA_DIR: dataDir },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await relay?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 with Retry-After in each family's shape while it lasts, and serves again once it is back", async () => {
    const regToken = (await tokenOf(server, "users-app", "idp_api_sys_users_reg idp_api_sys_users")).body.access_token as string;
    const before = unique("outage-");
    expect((await register(server, regToken, before)).status).toBe(200);

    await relay.cut();
    await expect.poll(() => readyStatus(server), { timeout: 10_000, interval: 200 }).toBe(503);

    // A read that must go to the database (an account nobody read yet), a registration, a grant.
    const read = await api("GET", `/api/v3/users/${unique("never-read-")}`, { token: regToken, origin: server.baseUrl });
    expect(read.status).toBe(503);
    expect(read.headers.get("retry-after")).toBe("5");
    expect(read.body).toMatchObject({ type: "internal_error", error: "service_unavailable" });
    expect(read.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|prisma|stack/i);

    const during = unique("outage-");
    const registration = await register(server, regToken, during);
    expect(registration.status).toBe(503);
    expect(registration.headers.get("retry-after")).toBe("5");

    const grant = await tokenOf(server, "post-app", "idp_api_sys_users");
    expect(grant.status).toBe(503);
    expect(grant.body).toMatchObject({ error: "temporarily_unavailable" });
    expect(grant.headers.get("retry-after")).toBe("5");
    expect(server.output()).not.toContain('"msg":"unhandled error"');

    // Ready for the whole outage, not only its first seconds.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await readyStatus(server)).toBe(503);

    await relay.restore();
    const back = Date.now();
    await expect.poll(() => readyStatus(server), { timeout: 15_000, interval: 100 }).toBe(200);
    console.log(`ready again ${Date.now() - back} ms after the database came back`);
    expect((await register(server, regToken, during)).status).toBe(200);
    expect((await api("GET", `/api/v3/users/${before}`, { token: regToken, origin: server.baseUrl })).status).toBe(200);
    expect((await tokenOf(server, "post-app", "idp_api_sys_users")).status).toBe(200);
  });
});

describe.skipIf(postgres)("the embedded server killed in the middle of writes", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "idp-kill-"));
  const env = { IDP_DATA_DIR: dataDir, IDP_ADMIN_PASSWORD: "kill-admin-password", IDP_IMPORT: IMPORT_FIXTURE };

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("loses no acknowledged write over three SIGKILLs and is ready again after each", async () => {
    const acknowledged: string[] = [];
    for (let cycle = 1; cycle <= 3; cycle++) {
      const started = Date.now();
      const server = await startServer({ env });
      console.log(`cycle ${cycle}: ready ${Date.now() - started} ms after the start`);
      const token = (await tokenOf(server, "users-app", "idp_api_sys_users_reg idp_api_sys_users")).body.access_token as string;
      // Every write acknowledged before the kill is still there, from every earlier cycle.
      for (const sub of acknowledged) expect((await api("GET", `/api/v3/users/${sub}`, { token, origin: server.baseUrl })).status, sub).toBe(200);

      // Four writers; the kill comes while they are writing.
      let killed = false;
      const writer = async () => {
        while (!killed) {
          const sub = unique(`kill${cycle}-`);
          const r = await register(server, token, sub).catch(() => undefined);
          if (r?.status === 200) acknowledged.push(sub);
        }
      };
      const writers = Promise.all(Array.from({ length: 4 }, writer));
      await new Promise((r) => setTimeout(r, 1_500));
      process.kill(server.pid!, "SIGKILL");
      killed = true;
      await server.exited;
      await writers;
    }
    const server = await startServer({ env });
    try {
      const token = (await tokenOf(server, "users-app", "idp_api_sys_users")).body.access_token as string;
      expect(acknowledged.length).toBeGreaterThan(10);
      for (const sub of acknowledged) expect((await api("GET", `/api/v3/users/${sub}`, { token, origin: server.baseUrl })).status, sub).toBe(200);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
