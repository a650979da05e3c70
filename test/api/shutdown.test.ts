import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { request, type ClientRequest, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { serverEntry } from "../../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { until } from "../support/wait.ts";

// Its own servers: stopping the suite's shared one is not an option.
const postgres = inject("dbKind") === "postgres";
const GRANT = "grant_type=client_credentials";

/** A token request whose body is sent only in part: in flight until `finish()`. */
function halfSentGrant(baseUrl: string): { req: ClientRequest; answer: Promise<{ res: IncomingMessage; body: string }>; finish(): void } {
  const req = request(`${baseUrl}/oauth/te`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(GRANT.length) },
  });
  const answer = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d));
      res.on("end", () => resolve({ res, body }));
    });
    req.on("error", reject);
  });
  req.write(GRANT.slice(0, 5));
  return { req, answer, finish: () => req.end(GRANT.slice(5)) };
}


describe("clean shutdown", () => {
  it.skipIf(postgres)("on SIGTERM stops accepting, finishes the request in flight, closes the embedded database and exits 0", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "idp-stop-"));
    const server = await startServer({ entry: [serverEntry], env: { IDP_DATA_DIR: dataDir, IDP_ADMIN_PASSWORD: "stop-test-password" } });
    const lock = path.join(dataDir, "pglite.lock");
    expect(existsSync(lock)).toBe(true);
    const inFlight = halfSentGrant(server.baseUrl);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.pid!, "SIGTERM");
    await until(() => server.output().includes('"msg":"stopping"'), 15_000);
    // No new connection is accepted while the old request is still running.
    await expect(fetch(`${server.baseUrl}/health/live`)).rejects.toThrow();
    inFlight.finish();
    const { res, body } = await inFlight.answer;
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(body).error).toBe("invalid_client");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    // The embedded lock is released: the next start does not have to take over a stale one.
    expect(existsSync(lock)).toBe(false);
  }, 120_000);

  it.runIf(postgres)("cuts a request still running at the deadline (IDP_SHUTDOWN_GRACE) and still exits 0", async () => {
    const db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    try {
      const server = await startServer({
        entry: [serverEntry],
        env: {
          DATABASE_URL: db.url,
          IDP_SECRET_KEY: "api-test-secret-key-0123456789abcdef",
          IDP_ADMIN_PASSWORD: "stop-test-password",
          IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-stop-")),
          IDP_SHUTDOWN_GRACE: "1",
        },
      });
      const stuck = halfSentGrant(server.baseUrl);
      const cut = stuck.answer.then(
        () => "answered",
        () => "cut",
      );
      await new Promise((r) => setTimeout(r, 300));
      const sent = Date.now();
      process.kill(server.pid!, "SIGTERM");
      expect(await server.exited).toBe(0);
      expect(Date.now() - sent).toBeLessThan(10_000);
      expect(await cut).toBe("cut");
      expect(server.output()).toContain("requests still running at the shutdown deadline");
      expect(server.output()).toContain('"msg":"stopped"');
    } finally {
      await db.drop();
    }
  }, 120_000);

  it("refuses to start with a shutdown grace that is not a number of seconds", () => {
    const r = spawnSync(process.execPath, [serverEntry, "-p", "1"], { env: { ...process.env, IDP_SHUTDOWN_GRACE: "soon" }, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('idp: cannot start: IDP_SHUTDOWN_GRACE: must be a whole number of seconds between 0 and 3600 (got "soon")\n');
  });
});
