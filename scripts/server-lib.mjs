// Starts the production build on a free loopback port and creates throw-away PostgreSQL databases:
// shared by the API tests, the e2e run and the benchmark so they all exercise the real server.
/* global AbortSignal */
import { spawn } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { get as httpsGet } from "node:https";
import pg from "pg";
import { root, serverEntry } from "./build-lib.mjs";
import { withThreadPool } from "../server/serve/threadpool.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** GET `url` over HTTPS trusting `ca` (PEM): the status, or an error. */
function httpsStatus(url, ca) {
  return new Promise((resolve, reject) => {
    const req = httpsGet(url, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject);
    req.setTimeout(2_000, () => req.destroy(new Error("no answer within 2 s")));
  });
}

/**
 * Runs the production server (server/serve/server.mjs, what `npm start` runs: the fast path plus Next)
 * with the given environment and resolves once /health/ready answers 200. `output()` returns
 * everything the server printed, for assertions on log lines. `nodeArgs` go to the server's node (e.g.
 * --cpu-prof, which NODE_OPTIONS refuses). `entry` is the script and its first arguments: pass
 * `[nextBin, "start"]` to measure Next's own CLI; `env.IDP_FAST_PATH = "0"` sends everything to Next.
 * With `tlsCa` (the PEM of the CA that issued the server's IDP_TLS_CERT) the server speaks HTTPS:
 * baseUrl is https, and readiness is checked trusting that CA. `publicHost` names the server in its
 * public URL (it listens on 127.0.0.1 either way): browsers accept "localhost", never an IP address,
 * as a passkey's relying party.
 */
export async function startServer(opts = {}) {
  // The free port is found before the server binds it: another process (the other API run beside
  // this one, a peer) may take it in between. Then the server stops with EADDRINUSE, and another
  // free port is tried, unless the caller chose the port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce({ ...opts, port: opts.port ?? (await freePort()) });
    } catch (e) {
      if (opts.port !== undefined || attempt === 3 || !/EADDRINUSE/.test(String(e?.message))) throw e;
    }
  }
}

async function startServerOnce({ env = {}, contextPath = "/idp", timeoutMs = 90_000, logFile, nodeArgs = [], entry = [serverEntry], port, tlsCa, cwd = root, publicHost = "127.0.0.1" }) {
  // With a log file the server writes to it directly: a benchmark's load generator must not share
  // its process with copying the server's log lines.
  const fd = logFile ? openSync(logFile, "a") : undefined;
  let out = "";
  const child = spawn(process.execPath, [...nodeArgs, ...entry, "-p", String(port), "-H", "127.0.0.1"], {
    cwd,
    // One process unless asked (IDP_WORKERS in the caller's environment or `env`): on PostgreSQL the
    // default would be one per core, and a suite that starts several servers, or a test that changes
    // something and reads it back at once, should not depend on the machine's cores nor on which
    // worker a connection reaches (test/api/workers.test.ts covers several workers).
    // IDP_TRUSTED_PROXIES=1: tests and the bench act as a reverse proxy, naming each browser they
    // simulate in X-Forwarded-For (per-address limits would otherwise see them all as 127.0.0.1).
    // UV_THREADPOOL_SIZE as `npm start` sets it (server/serve/threadpool.mjs).
    // IDP_OUTBOUND_ALLOW: the tests' external providers listen on loopback, refused unless allowed.
    env: withThreadPool({ IDP_WORKERS: "1", ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), IDP_PUBLIC_URL: `${tlsCa ? "https" : "http"}://${publicHost}:${port}`, IDP_TRUSTED_PROXIES: "1", IDP_OUTBOUND_ALLOW: "127.0.0.0/8,::1", ...env }),
    stdio: ["ignore", fd ?? "pipe", fd ?? "pipe"],
  });
  if (fd === undefined) {
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
  }
  const output = () => (logFile ? readFileSync(logFile, "utf8") : out);
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `${tlsCa ? "https" : "http"}://${publicHost}:${port}${contextPath}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 250))]);
    if (code !== undefined) throw new Error(`server exited with ${code} before it was ready:\n${output()}`);
    try {
      const status = tlsCa ? await httpsStatus(`${baseUrl}/health/ready`, tlsCa) : (await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) })).status;
      // Ready, and the answer is this server's: it says it listens (a process that took the port
      // meanwhile, such as a server of the other API run, answers too, while this one fails).
      if (status === 200 && (entry[0] !== serverEntry || output().includes('"msg":"listening"'))) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server not ready within ${timeoutMs} ms:\n${output()}`);
    }
  }
  return {
    baseUrl,
    port,
    pid: child.pid,
    output,
    /** The server's exit code once it has exited (null when a signal killed it). */
    exited,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** A fresh database on the PostgreSQL server of `adminUrl`; drop() removes it. */
export async function createPgDatabase(adminUrl) {
  const name = `idp_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
