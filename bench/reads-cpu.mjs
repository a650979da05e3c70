#!/usr/bin/env node
// `node bench/reads-cpu.mjs`: the server's CPU per request of the trivial route and of each cached
// bearer read, in µs, so that a read can be compared with the trivial route on a busy machine and a
// change measured by what it saves (req/s move with whatever else runs; CPU per request much less).
// Starts the production build (embedded database, or BENCH_DB=postgres) with BENCH_USERS (default
// 5,000) accounts and BENCH_GRANTS (default 20,000) grants, reads each row's 2,000 subs once, then
// loads each row for BENCH_DURATION seconds and divides the CPU time of the server's main thread
// (and of all its threads) by the requests served. The row trivial-h is the trivial route sent the
// reads' Authorization header, which it ignores: what carrying a token costs before any check.
// BENCH_ROWS=trivial,users,… picks rows;
// BENCH_ROUNDS=n repeats the rows n times, interleaved, and prints medians with their range;
// BENCH_CPU_PROF=1 writes a .cpuprofile into bench/results and prints each row's window on the
// profile's clock, for comparing a read's profile with the trivial route's.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { startServer } from "../scripts/server-lib.mjs";
import { SECURITY_SCOPES } from "./account-security.mjs";
import { benchEnv, connections, endRun, load, rotating, sampleSubs, seedUsers, summary } from "./load.mjs";
import { seedGrants } from "./rights-rows.mjs";
import { signInFixtures, userAccessToken } from "./sign-in.mjs";

const TICK_MS = 10; // /proc reports CPU in clock ticks of 1/100 s on Linux
const ticks = (file) => {
  const f = readFileSync(file, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
};

const dataDir = mkdtempSync(path.join(tmpdir(), "idp-reads-cpu-"));
const importFile = path.join(dataDir, "clients.json");
const secret = "bench-secret:0123456789";
const restPassword = "bench-rest-password";
const signIn = await signInFixtures(1);
const scopes = [...new Set(["idp_api_sys_users", ...SECURITY_SCOPES.split(" "), "idp_rights_full_access"])];
writeFileSync(importFile, JSON.stringify({ clients: [{ id: "bench-app", name: "Benchmark", secret, restPassword, scopes }, signIn.client], users: signIn.users }));
delete process.env.IDP_CONTEXT_PATH;
buildIfStale();
const { env, pgDb } = await benchEnv(dataDir, importFile);
env.IDP_WORKERS = "1";
seedUsers(Number(process.env.BENCH_USERS ?? 5_000), env);
seedGrants(Number(process.env.BENCH_GRANTS ?? 20_000), env);
const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench", "results")}`] : [];
const server = await startServer({ env, nodeArgs, logFile: path.join(dataDir, "server.log") });

async function bearer(scope) {
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { authorization: "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
    body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
  });
  if (res.status !== 200) throw new Error(`no token: ${res.status}`);
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}

let finished = false;
try {
  const ctx = new URL(server.baseUrl).pathname.replace(/\/$/, "");
  const subs = (await sampleSubs(server.baseUrl, "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64"), 300)).slice(0, 2_000);
  const [users, security, rights] = [await bearer("idp_api_sys_users"), await bearer(SECURITY_SCOPES), await bearer("idp_rights_full_access")];
  const me = { authorization: `Bearer ${await userAccessToken(server.baseUrl, signIn.users[0].sub)}` };
  const over = (f) => subs.map((s) => `${ctx}${f(s)}`);
  const all = [
    ["trivial", [`${ctx}/health/live`], {}],
    ["trivial-h", [`${ctx}/health/live`], security],
    ["users", over((s) => `/api/v3/users/${s}`), users],
    ["auth", over((s) => `/api/v3/users/${s}/auth`), security],
    ["state", over((s) => `/api/v3/users/${s}/state`), security],
    ["props", over((s) => `/api/v3/users/${s}/props`), security],
    ["rights-of", over((s) => `/api/v3/rights/of/${s}`), rights],
    ["rights-on", over((s) => `/api/v3/rights/on/${s}`), rights],
    ["me", [`${ctx}/oauth/me`], me],
  ];
  const picked = process.env.BENCH_ROWS?.split(",");
  const rows = all.filter(([name]) => !picked || picked.includes(name));
  await load(`${server.baseUrl}/health/live`, { duration: 3 });
  // Each sub read once (autocannon wants at least one request per connection: the one-path rows repeat theirs).
  for (const [, paths, headers] of rows) await load(server.baseUrl, { ...rotating(paths, headers), amount: Math.max(paths.length, connections) });
  const main = `/proc/${server.pid}/task/${server.pid}/stat`;
  const whole = `/proc/${server.pid}/stat`;
  // Rows interleaved, BENCH_ROUNDS times: what the machine does meanwhile falls on every row alike.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const runs = new Map(rows.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, paths, headers] of rows) {
      const [m0, a0, t0] = [ticks(main), ticks(whole), process.hrtime.bigint() / 1000n];
      const r = summary(name, await load(server.baseUrl, rotating(paths, headers)));
      const per = (ms) => Math.round((ms * 1000) / r.requests);
      const window = process.env.BENCH_CPU_PROF ? ` (profile window ${t0}–${process.hrtime.bigint() / 1000n} µs)` : "";
      runs.get(name).push({ rps: r.rps, main: per(ticks(main) - m0), all: per(ticks(whole) - a0), failed: r.failed, window });
      if (r.failed) process.exitCode = 1;
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const spread = (xs) => (xs.length > 1 ? ` (${Math.min(...xs)}–${Math.max(...xs)})` : "");
  console.log(`\ndatabase ${pgDb ? "postgres" : "embedded"}; server CPU per request, µs${rounds > 1 ? `; median of ${rounds} rounds (range)` : ""}\n\n| row | req/s | main thread | all threads | failed |\n|---|---|---|---|---|`);
  for (const [name, rs] of runs) {
    const col = (k) => `${median(rs.map((r) => r[k]))}${spread(rs.map((r) => r[k]))}`;
    console.log(`| ${name} | ${col("rps")} | ${col("main")} | ${col("all")} | ${rs.reduce((n, r) => n + r.failed, 0)}${rs.map((r) => r.window).join("")} |`);
  }
  finished = !process.exitCode;
} finally {
  await endRun({ server, pgDb, dataDir, finished });
}
