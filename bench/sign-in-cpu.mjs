#!/usr/bin/env node
// `node bench/sign-in-cpu.mjs`: where the CPU of one password sign-in goes, in milliseconds of CPU
// rather than requests per second, so it can be read on a busy machine. Starts the production build
// (embedded database, or BENCH_DB=postgres), runs sign-ins through the login form for BENCH_DURATION
// seconds, and divides the CPU time the server process (all its threads), PostgreSQL's processes and
// this process spent by the number of sign-ins; next to it, the CPU of one raw argon2id verification.
// On PostgreSQL it also counts the statements PostgreSQL receives per sign-in (a counting proxy in
// front of it, bench/pg-statements.mjs), and lists those of one sign-in, request by request.
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../scripts/server-lib.mjs";
import { connections, duration } from "./load.mjs";
import { countingProxy } from "./pg-statements.mjs";
import { argon2Ceiling, Browser, signInFixtures, signInLoad, signInOnce } from "./sign-in.mjs";

const TICK_MS = 10; // /proc reports CPU in clock ticks of 1/100 s on Linux
const cpuOf = (pid, thread = "") => {
  try {
    const f = readFileSync(`/proc/${pid}${thread}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
};
const postgresPids = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p) && readFileSync(`/proc/${p}/comm`, "utf8").trim() === "postgres");
const cpuOfPostgres = () => postgresPids().reduce((sum, p) => sum + cpuOf(p), 0);
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * One more sign-in, alone, from a browser that has signed in before (as in the load): the statements
 * of each of its requests, in the order PostgreSQL got them.
 */
async function statementsOfOneSignIn(baseUrl, counter) {
  const browser = new Browser(0);
  await signInOnce(baseUrl, browser, "bench-user-0");
  let step;
  const flush = () => {
    if (step) console.log(`  ${step}: ${counter.recent.length}${counter.recent.map((s) => `\n    ${s}`).join("")}`);
    counter.recent = [];
  };
  counter.record = true;
  await signInOnce(baseUrl, browser, "bench-user-0", (next) => {
    flush();
    step = next;
  });
  counter.record = false;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "idp-cpu-"));
const fixtures = await signInFixtures(connections);
writeFileSync(path.join(dataDir, "import.json"), JSON.stringify({ clients: [fixtures.client], users: fixtures.users }));
buildIfStale();
const env = { IDP_DATA_DIR: dataDir, IDP_IMPORT: path.join(dataDir, "import.json"), IDP_ADMIN_PASSWORD: "bench-admin-password", NODE_ENV: "production" };
const pgDb = process.env.BENCH_DB === "postgres" ? await createPgDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres") : undefined;
const proxy = pgDb && (await countingProxy(new URL(pgDb.url)));
if (pgDb) {
  const counted = new URL(pgDb.url);
  counted.hostname = "127.0.0.1";
  counted.port = String(proxy.port);
  Object.assign(env, { DATABASE_URL: counted.toString(), IDP_SECRET_KEY: "bench-secret-key-0123456789abcdefghij" });
}
const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench", "results")}`] : [];
const server = await startServer({ env, nodeArgs, logFile: path.join(dataDir, "server.log") });
try {
  await signInLoad(server.baseUrl, { workers: connections, seconds: 3 });
  const a0 = ownCpu();
  const verified = (await argon2Ceiling(fixtures.passwordHash, 3)) * 3;
  const argon2Ms = (ownCpu() - a0) / verified;
  // The main thread is the task whose id is the process's: JavaScript runs there, argon2id does not.
  const mainThread = `/task/${server.pid}`;
  const before = { main: cpuOf(server.pid, mainThread), server: cpuOf(server.pid), pg: cpuOfPostgres(), own: ownCpu(), statements: proxy?.counter.statements ?? 0 };
  const window = [process.hrtime.bigint() / 1000n];
  const r = await signInLoad(server.baseUrl, { workers: connections, seconds: duration });
  window.push(process.hrtime.bigint() / 1000n);
  const n = r.requests;
  const per = (x) => (x / n).toFixed(1);
  const server_ = cpuOf(server.pid) - before.server;
  console.log(`${n} sign-ins (${r.rps}/s, ${r.failed} failed), database ${pgDb ? "postgres" : "embedded"}`);
  // The profile's clock is the same monotonic clock: its samples between these two are the load's.
  if (process.env.BENCH_CPU_PROF) console.log(`load window (µs, monotonic): ${window.join(" ")}`);
  console.log(`CPU ms per sign-in: server ${per(server_)} (main thread ${per(cpuOf(server.pid, mainThread) - before.main)}; argon2id alone ${argon2Ms.toFixed(1)}), postgres ${pgDb ? per(cpuOfPostgres() - before.pg) : "-"}, bench client ${per(ownCpu() - before.own)}`);
  if (proxy) {
    console.log(`statements per sign-in (BEGIN and COMMIT counted): ${per(proxy.counter.statements - before.statements)}`);
    await statementsOfOneSignIn(server.baseUrl, proxy.counter);
  }
} finally {
  await server.stop();
  await proxy?.close();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
