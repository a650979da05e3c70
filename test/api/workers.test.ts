import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { serverEntry } from "../../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import pg from "pg";
import { consoleMutation, mintConsoleSession } from "../support/console.ts";
import { fixtureClient, IMPORT_FIXTURE, oauthBasic } from "../support/fixtures.ts";
import { until } from "../support/wait.ts";

// IDP_WORKERS=2 on PostgreSQL: a server of its own (the suite's runs one process, see
// scripts/server-lib.mjs). Every request below goes over a connection of its own, so node:cluster's
// round robin spreads them over both workers; the worker that answered is read from the server's
// log (each line names its worker, and each request line carries the x-request-id of the answer).

const postgres = inject("dbKind") === "postgres";
const SCRAPE_TOKEN = "metrics-scrape-token-for-workers";
const SECRET_KEY = "workers-secret-key-0123456789abcdef";

/** Two workers on a database of their own, with the suite's import, a metrics token and pools of 4. */
const workersEnv = (databaseUrl: string, dataDirPrefix: string) => ({
  IDP_WORKERS: "2",
  DATABASE_URL: databaseUrl,
  IDP_SECRET_KEY: SECRET_KEY,
  IDP_ADMIN_PASSWORD: "workers-admin-password",
  IDP_IMPORT: IMPORT_FIXTURE,
  IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), dataDirPrefix)),
  IDP_METRICS_TOKEN: SCRAPE_TOKEN,
  IDP_DB_POOL_MAX: "4",
});
const WITHIN_A_SECOND = { timeout: 1_000, interval: 50 };

type TAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
type TServer = Awaited<ReturnType<typeof startServer>>;

/** One request on a new connection (no keep-alive agent), closed after the answer. */
function fresh(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<TAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    // A connection handed to a worker that is killed may never be answered.
    req.setTimeout(10_000, () => req.destroy(new Error("no answer within 10 s")));
    req.end(init.body);
  });
}

type TLogLine = { msg: string; worker?: number; pid?: number; requestId?: string; code?: number; status?: number };

function logLines(server: TServer): TLogLine[] {
  return server.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as TLogLine);
}

/**
 * The worker that answered, from the request's log line. The line is written when the response has
 * finished, which may trail the client's receipt of it, so it is waited for (a few seconds at most).
 */
async function workerOf(server: TServer, answer: TAnswer): Promise<number> {
  const id = answer.headers["x-request-id"];
  const line = () => logLines(server).find((l) => l.msg === "request" && l.requestId === id);
  await until(() => Boolean(line()?.worker), 5_000).catch(() => {
    throw new Error(`no request log line with a worker for ${String(id)}`);
  });
  return line()!.worker!;
}

/** The set of workers that answered these requests. */
async function workersOf(server: TServer, answers: TAnswer[]): Promise<Set<number>> {
  return new Set(await Promise.all(answers.map((a) => workerOf(server, a))));
}


function metricValue(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe.runIf(postgres)("IDP_WORKERS=2 on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let server: TServer;
  const users = fixtureClient("users-app");

  const grant = (id = users.id, secret = users.secret, scope = "idp_api_sys_users") =>
    fresh(`${server.baseUrl}/oauth/te`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(id, secret) },
      body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
    });
  const token = async (scope: string) => JSON.parse((await grant(users.id, users.secret, scope)).body).access_token as string;
  const scrape = () => fresh(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });

  beforeAll(async () => {
    db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    server = await startServer({
      env: {
        ...workersEnv(db.url, "idp-workers-"),
        IDP_CLIENT_AUTH_WINDOW: "3",
      },
    });
    // Ready means one worker answers; the test wants both.
    await until(() => server.output().includes('"msg":"workers started"'), 60_000);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("answers from both workers, each log line naming its worker, and no answer names a process", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => grant()));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(await workersOf(server, answers)).toEqual(new Set([1, 2]));
    for (const a of answers) expect(Object.keys(a.headers).filter((h) => /worker|pid/i.test(h))).toEqual([]);
    const started = logLines(server).filter((l) => l.msg === "worker listening");
    expect(started.map((l) => l.worker).sort()).toEqual([1, 2]);
    // IDP_IMPORT is applied once per start, by the first worker.
    expect(logLines(server).filter((l) => l.msg === "import applied").map((l) => l.worker)).toEqual([1]);
  });

  it("shows a change made through one worker on every worker", async () => {
    const read = await token("idp_api_sys_users");
    const readIvanov = () => fresh(`${server.baseUrl}/api/v3/users/ivanov`, { headers: { authorization: `Bearer ${read}` } });
    // Both workers hold the account in their caches before the change.
    const before = await Promise.all(Array.from({ length: 6 }, readIvanov));
    expect(await workersOf(server, before)).toEqual(new Set([1, 2]));
    const { meta } = JSON.parse(before[0]!.body) as { meta: { instanceId: string } };

    const change = await fresh(`${server.baseUrl}/api/v3/users/${meta.instanceId}`, {
      method: "POST",
      headers: { authorization: `Bearer ${await token("idp_api_sys_users_chg")}`, "content-type": "application/json" },
      body: JSON.stringify({ given_name: "Иоанн" }),
    });
    expect(change.status).toBe(200);
    const changedBy = await workerOf(server, change);

    // The other worker learns of it through PostgreSQL's NOTIFY, within a second; from then on
    // every read from either worker shows it.
    await expect.poll(async () => (await Promise.all([readIvanov(), readIvanov()])).map((a) => JSON.parse(a.body).given_name), WITHIN_A_SECOND).toEqual(["Иоанн", "Иоанн"]);
    const after = await Promise.all(Array.from({ length: 10 }, readIvanov));
    expect(after.map((a) => JSON.parse(a.body).given_name)).toEqual(Array(10).fill("Иоанн"));
    expect(await workersOf(server, after)).toContain(changedBy === 1 ? 2 : 1);
  });

  it("counts failed client authentications for the machine: of parallel wrong secrets at most the limit is judged", async () => {
    const limits = fixtureClient("limits-app");
    const burst = await Promise.all(Array.from({ length: 25 }, (_, i) => grant(limits.id, `wrong-secret-${i}`)));
    expect(await workersOf(server, burst)).toEqual(new Set([1, 2]));
    const judged = burst.filter((a) => a.status === 401);
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.length).toBeLessThanOrEqual(10);
    expect(burst.filter((a) => a.status === 429).length).toBe(25 - judged.length);
    // The right secret is refused on both workers until the window has passed.
    const right = await Promise.all(Array.from({ length: 4 }, () => grant(limits.id, limits.secret)));
    expect(right.map((a) => a.status)).toEqual([429, 429, 429, 429]);
    expect(await workersOf(server, right)).toEqual(new Set([1, 2]));
  });

  it("sums metrics over the workers, whichever answers the scrape", async () => {
    const tokensIssued = 'idp_oauth_tokens_issued_total{grant_type="client_credentials"}';
    const first = await scrape();
    expect(first.status).toBe(200);
    expect(metricValue(first.body, "idp_server_processes")).toBe(2);
    const grants = await Promise.all(Array.from({ length: 10 }, () => grant()));
    expect(await workersOf(server, grants)).toEqual(new Set([1, 2]));
    // Scrapes answered by either worker all see every grant.
    const scrapes = await Promise.all(Array.from({ length: 4 }, scrape));
    expect(await workersOf(server, scrapes)).toEqual(new Set([1, 2]));
    for (const s of scrapes) {
      expect(s.status).toBe(200);
      expect(metricValue(s.body, tokensIssued)).toBe(metricValue(first.body, tokensIssued) + 10);
      expect(metricValue(s.body, "idp_server_processes")).toBe(2);
      // IDP_DB_POOL_MAX=4 per worker, summed.
      expect(metricValue(s.body, "idp_db_pool_max_connections")).toBe(8);
    }
  });

  it("replaces a worker that dies, without re-applying IDP_IMPORT nor lowering the summed counters", async () => {
    // A secret rotated in the console after the start: the replacement must not revert it to the imported one.
    const post = fixtureClient("post-app");
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>("SELECT id FROM users WHERE login = 'admin'");
    await client.end();
    const cookie = await mintConsoleSession(SECRET_KEY, rows[0]!.id);
    const { secret } = (await consoleMutation(server.baseUrl, cookie, "console.clients.rotateSecret", { id: post.id })) as { secret: string };
    await expect.poll(async () => (await Promise.all([1, 2, 3, 4].map(() => grant(post.id, secret)))).map((a) => a.status), WITHIN_A_SECOND).toEqual([200, 200, 200, 200]);
    // Scraped now, each worker's share is known to the primary.
    const tokensIssued = 'idp_oauth_tokens_issued_total{grant_type="client_credentials"}';
    const issued = metricValue((await scrape()).body, tokensIssued);

    const before = logLines(server).filter((l) => l.msg === "worker listening");
    const victim = before.find((l) => l.worker === 2)!;
    process.kill(victim.pid!, "SIGKILL");
    await until(() => logLines(server).some((l) => l.msg === "worker exited" && l.pid === victim.pid), 60_000);
    await until(() => logLines(server).filter((l) => l.msg === "worker listening").length === before.length + 1, 60_000);
    const replacement = logLines(server).filter((l) => l.msg === "worker listening").at(-1)!;
    expect(replacement.worker).toBe(2);
    expect(replacement.pid).not.toBe(victim.pid);
    const answers = await Promise.all(Array.from({ length: 8 }, () => grant(post.id, secret)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(await workersOf(server, answers)).toEqual(new Set([1, 2]));
    const imported = await Promise.all([1, 2, 3, 4].map(() => grant(post.id, post.secret)));
    expect(imported.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(logLines(server).filter((l) => l.msg === "import applied")).toHaveLength(1);
    // The dead worker's grants still count: the machine's counter does not go down.
    const after = await scrape();
    expect(after.status).toBe(200);
    expect(metricValue(after.body, tokensIssued)).toBe(issued + 8);
  }, 120_000);

  it("gives back the slots of a worker killed while it judged secrets: the next window admits the full limit", async () => {
    const groups = fixtureClient("groups-app");
    // An address of this test's own (the suite acts as a proxy), so only this client and address count.
    const wrong = (i: number) =>
      fresh(`${server.baseUrl}/oauth/te`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(groups.id, `wrong-${Date.now()}-${i}`), "x-forwarded-for": "203.0.113.77" },
        body: new URLSearchParams({ grant_type: "client_credentials", scope: "idp_api_sys_groups" }).toString(),
      }).then((a) => a.status, () => 0);
    const listening = () => logLines(server).filter((l) => l.msg === "worker listening");
    // Argon2 checks take turns (two per worker), so while the first guesses are judged, the workers
    // hold slots for the guesses queued behind them: worker 2 is killed at the first judged answer.
    // Whether it still held a slot then is up to the scheduler (a fixed delay missed on a loaded
    // machine: all answered before, or none arrived yet), so a burst that cut no connection is
    // repeated, in a new window, after the replacement has started.
    let cut = 0;
    for (let attempt = 1; attempt <= 5 && cut === 0; attempt++) {
      const before = listening().length;
      const victim = listening().filter((l) => l.worker === 2).at(-1)!;
      const from = server.output().length;
      const burst = Promise.all(Array.from({ length: 25 }, (_, i) => wrong(attempt * 100 + i)));
      const judged = () => server.output().slice(from).split("\n").some((l) => l.includes('"msg":"request"') && l.includes('"status":401'));
      for (const end = Date.now() + 30_000; !judged() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 2));
      process.kill(victim.pid!, "SIGKILL");
      cut = (await burst).filter((s) => s === 0).length;
      await until(() => listening().length === before + 1, 60_000);
      await new Promise((r) => setTimeout(r, 3_200));
    }
    expect(cut).toBeGreaterThan(0);
    // A new window (IDP_CLIENT_AUTH_WINDOW=3): exactly the limit (IDP_CLIENT_AUTH_FAILURES, 10) is judged again.
    const next = await Promise.all(Array.from({ length: 25 }, (_, i) => wrong(1000 + i)));
    expect(next.filter((s) => s === 401)).toHaveLength(10);
    expect(next.filter((s) => s === 429)).toHaveLength(15);
  }, 120_000);

  it("stops every worker on SIGTERM and exits 0", async () => {
    const pids = logLines(server).filter((l) => l.msg === "worker listening").map((l) => l.pid!);
    process.kill(server.pid!, "SIGTERM");
    expect(await server.exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(logLines(server).filter((l) => l.msg === "stopped" && l.worker).map((l) => l.worker).sort()).toEqual([1, 2]);
  }, 60_000);
});

describe.runIf(postgres)("IDP_WORKERS=2: a start that fails", () => {
  it("fails once, in the first worker, and the primary exits 1 without retrying", async () => {
    const db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    try {
      // A fresh database without IDP_ADMIN_PASSWORD: the first administrator cannot be created.
      const error = await startServer({
        env: { IDP_WORKERS: "2", DATABASE_URL: db.url, IDP_SECRET_KEY: "workers-secret-key-0123456789abcdef", IDP_DATA_DIR: mkdtempSync(path.join(tmpdir(), "idp-workers-fail-")) },
        timeoutMs: 120_000,
      }).then(
        async (s) => {
          await s.stop();
          return "started";
        },
        (e: Error) => e.message,
      );
      expect(error).toMatch(/^server exited with 1 before it was ready/);
      expect(error.match(/idp: cannot start: IDP_ADMIN_PASSWORD: is required to create the first administrator on PostgreSQL/g)).toHaveLength(1);
      expect(error).toContain('"msg":"a worker failed to start; stopping"');
      expect(error.match(/"msg":"workers starting"/g)).toHaveLength(1);
    } finally {
      await db.drop();
    }
  }, 150_000);
});

describe.runIf(postgres)("under another process manager's cluster (PM2's cluster mode)", () => {
  it("serves as a single process: secrets are checked and metrics answered without a primary of ours", async () => {
    const db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    const server = await startServer({
      entry: ["test/support/foreign-cluster.mjs"],
      env: workersEnv(db.url, "idp-foreign-"),
      timeoutMs: 120_000,
    });
    try {
      const users = fixtureClient("users-app");
      const started = Date.now();
      const grant = await fresh(`${server.baseUrl}/oauth/te`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: oauthBasic(users.id, users.secret) },
        body: new URLSearchParams({ grant_type: "client_credentials", scope: "idp_api_sys_users" }).toString(),
      });
      expect(grant.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      const scrape = await fresh(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
      expect(scrape.status).toBe(200);
      expect(metricValue(scrape.body, "idp_server_processes")).toBe(1);
      expect(server.output()).toContain('"msg":"IDP_WORKERS ignored: another process manager\'s cluster runs this process; serving as one process"');
      expect(server.output()).not.toContain('"msg":"workers starting"');
    } finally {
      await server.stop();
      await db.drop();
    }
  }, 150_000);
});

describe("IDP_WORKERS is refused where it cannot hold", () => {
  const start = (env: Record<string, string>) => {
    const { DATABASE_URL: _, ...rest } = process.env;
    return spawnSync(process.execPath, [serverEntry, "-p", "1"], { env: { ...rest, ...env }, encoding: "utf8", timeout: 30_000 });
  };

  it("refuses several workers on the embedded database, with one line naming the variable", () => {
    const r = start({ IDP_WORKERS: "2" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('idp: cannot start: IDP_WORKERS: must be 1 on the embedded database, which one process owns; set DATABASE_URL to run several workers (got "2")');
    const check = spawnSync(process.execPath, ["scripts/idp.mjs", "check-config"], { env: { ...process.env, DATABASE_URL: "", IDP_WORKERS: "2" }, encoding: "utf8" });
    expect(check.status).toBe(1);
    expect(check.stderr.trim()).toBe('idp: IDP_WORKERS: must be 1 on the embedded database, which one process owns; set DATABASE_URL to run several workers (got "2")');
  });

  it("refuses a number of workers that is not a whole number from 1 to 64", () => {
    for (const value of ["0", "65", "two", "1.5"]) {
      const r = start({ IDP_WORKERS: value, DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`idp: cannot start: IDP_WORKERS: must be a whole number between 1 and 64 (got "${value}")`);
    }
  });
});

