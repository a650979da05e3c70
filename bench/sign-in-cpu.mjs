#!/usr/bin/env node
// `node bench/sign-in-cpu.mjs`: where the CPU of one password sign-in goes, in milliseconds of CPU
// rather than requests per second, so it can be read on a busy machine. Starts the production build
// (embedded database, or BENCH_DB=postgres), runs sign-ins through the login form for BENCH_DURATION
// seconds, and divides the CPU time the server process (all its threads), PostgreSQL's processes and
// this process spent by the number of sign-ins; next to it, the CPU of one raw argon2id verification.
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../scripts/server-lib.mjs";
import { connections, duration } from "./load.mjs";
import { argon2Ceiling, signInFixtures, signInLoad } from "./sign-in.mjs";

const TICK_MS = 10; // /proc reports CPU in clock ticks of 1/100 s on Linux
const cpuOf = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
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

const dataDir = mkdtempSync(path.join(tmpdir(), "idp-cpu-"));
const fixtures = await signInFixtures(connections);
writeFileSync(path.join(dataDir, "import.json"), JSON.stringify({ clients: [fixtures.client], users: fixtures.users }));
buildIfStale();
const env = { IDP_DATA_DIR: dataDir, IDP_IMPORT: path.join(dataDir, "import.json"), IDP_ADMIN_PASSWORD: "bench-admin-password", NODE_ENV: "production" };
const pgDb = process.env.BENCH_DB === "postgres" ? await createPgDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres") : undefined;
if (pgDb) Object.assign(env, { DATABASE_URL: pgDb.url, IDP_SECRET_KEY: "bench-secret-key-0123456789abcdefghij" });
const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench", "results")}`] : [];
const server = await startServer({ env, nodeArgs, logFile: path.join(dataDir, "server.log") });
try {
  await signInLoad(server.baseUrl, { workers: connections, seconds: 3 });
  const a0 = ownCpu();
  const verified = (await argon2Ceiling(fixtures.passwordHash, 3)) * 3;
  const argon2Ms = (ownCpu() - a0) / verified;
  const before = { server: cpuOf(server.pid), pg: cpuOfPostgres(), own: ownCpu() };
  const window = [process.hrtime.bigint() / 1000n];
  const r = await signInLoad(server.baseUrl, { workers: connections, seconds: duration });
  window.push(process.hrtime.bigint() / 1000n);
  const n = r.requests;
  const per = (x) => (x / n).toFixed(1);
  const server_ = cpuOf(server.pid) - before.server;
  console.log(`${n} sign-ins (${r.rps}/s, ${r.failed} failed), database ${pgDb ? "postgres" : "embedded"}`);
  // The profile's clock is the same monotonic clock: its samples between these two are the load's.
  if (process.env.BENCH_CPU_PROF) console.log(`load window (µs, monotonic): ${window.join(" ")}`);
  console.log(`CPU ms per sign-in: server ${per(server_)} (argon2id alone ${argon2Ms.toFixed(1)}), postgres ${pgDb ? per(cpuOfPostgres() - before.pg) : "-"}, bench client ${per(ownCpu() - before.own)}`);
} finally {
  await server.stop();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
