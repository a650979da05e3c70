#!/usr/bin/env node
// `node bench/reads-cpu.mjs`: the server's CPU per request of the trivial route and of each cached
// bearer read, in µs, so that a read can be compared with the trivial route on a busy machine and a
// change measured by what it saves (req/s move with whatever else runs; CPU per request much less).
// Starts the production build (embedded database, or BENCH_DB=postgres) with BENCH_USERS (default
// 5,000) accounts and BENCH_GRANTS (default 20,000) grants, reads each row's 2,000 subs once, then
// loads each row for BENCH_DURATION seconds and divides the CPU time of the server's main thread
// (and of all its threads) by the requests served. The row trivial-h is the trivial route sent the
// reads' Authorization header, which it ignores: what carrying a token costs before any check;
// state-1 is the state read of one sub only: beside `state` (2,000 subs), what their variety costs;
// token is the token endpoint (a client_credentials grant; under load only, not with BENCH_INPROC).
// The column `client` is this process's CPU per request (the load generator's).
// BENCH_ROWS=trivial,users,… picks rows;
// BENCH_ROUNDS=n repeats the rows n times, interleaved, and prints medians with their range;
// BENCH_CPU_PROF=1 writes a .cpuprofile into bench/results and prints each row's window on the
// profile's clock, for comparing a read's profile with the trivial route's.
// BENCH_AB=<checkout> (with BENCH_DB=postgres) also starts that checkout's production build on the
// same database and loads each row on both servers in turn: a change is judged by the difference
// per round, which the machine's drift (on this VM, up to a quarter between runs) moves far less.
// BENCH_INPROC=1 measures without load instead: each row's requests go to the server's listener
// inside its process (bench/inproc-hook.mjs), so the table is the JavaScript time per request alone:
// the part of a read's cost beyond the trivial route's that our code and the route handling make.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { startServer } from "../scripts/server-lib.mjs";
import { SECURITY_SCOPES } from "./account-security.mjs";
import { benchEnv, connections, cpuMs, endRun, load, median, rotating, sampleSubs, seedUsers, summary } from "./load.mjs";
import { seedGrants } from "./rights-rows.mjs";
import { signInFixtures, userAccessToken } from "./sign-in.mjs";


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
const inproc = process.env.BENCH_INPROC ? { rows: path.join(dataDir, "inproc-rows.json"), out: path.join(dataDir, "inproc-out.json") } : undefined;
if (inproc) {
  nodeArgs.push("--import", path.join(root, "bench", "inproc-hook.mjs"));
  Object.assign(env, { BENCH_INPROC_ROWS: inproc.rows, BENCH_INPROC_OUT: inproc.out });
}
const server = await startServer({ env, nodeArgs, logFile: path.join(dataDir, "server.log") });
const abDir = process.env.BENCH_AB;
if (abDir && !pgDb) throw new Error("BENCH_AB needs BENCH_DB=postgres: both servers read one database");
/** The servers compared: this checkout's, and with BENCH_AB the other one's (its own build, `npm run build` there). */
/** @type {{ name: string; server: Awaited<ReturnType<typeof startServer>>; rows?: Map<string, [string[], Record<string, string>]> }[]} */
const servers = [{ name: "", server }];
if (abDir) {
  const entry = [path.join(path.resolve(abDir), "server", "serve", "server.mjs")];
  servers.push({ name: ` @${path.basename(path.resolve(abDir))}`, server: await startServer({ env, nodeArgs, entry, logFile: path.join(dataDir, "server-ab.log") }) });
}

async function bearer(baseUrl, scope) {
  const res = await fetch(`${baseUrl}/oauth/te`, {
    method: "POST",
    headers: { authorization: "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
    body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
  });
  if (res.status !== 200) throw new Error(`no token: ${res.status}`);
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}

const tokenRequest = {
  headers: { authorization: "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
  body: "grant_type=client_credentials&scope=idp_api_sys_users",
};

let finished = false;
try {
  const ctx = new URL(server.baseUrl).pathname.replace(/\/$/, "");
  const subs = (await sampleSubs(server.baseUrl, "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64"), 300)).slice(0, 2_000);
  const granted = [...subs].sort().slice(0, 1_000);
  // Per server: a token names its issuer, which is the server's own URL.
  async function rowsOf(baseUrl) {
    const [users, security, rights] = [await bearer(baseUrl, "idp_api_sys_users"), await bearer(baseUrl, SECURITY_SCOPES), await bearer(baseUrl, "idp_rights_full_access")];
    const me = { authorization: `Bearer ${await userAccessToken(baseUrl, signIn.users[0].sub)}` };
    const over = (f) => subs.map((s) => `${ctx}${f(s)}`);
    return [
      ["trivial", [`${ctx}/health/live`], {}],
      ["trivial-h", [`${ctx}/health/live`], security],
      ["users", over((s) => `/api/v3/users/${s}`), users],
      ["auth", over((s) => `/api/v3/users/${s}/auth`), security],
      ["state", over((s) => `/api/v3/users/${s}/state`), security],
      ["state-1", [`${ctx}/api/v3/users/${subs[0]}/state`], security],
      ["props", over((s) => `/api/v3/users/${s}/props`), security],
      ["rights-of", over((s) => `/api/v3/rights/of/${s}`), rights],
      ["rights-on", over((s) => `/api/v3/rights/on/${s}`), rights],
      ["me", [`${ctx}/oauth/me`], me],
      // The token endpoint: a client_credentials grant (its secret's argon2 check is remembered after the first).
      ["token", [`${ctx}/oauth/te`], tokenRequest.headers, tokenRequest.body],
      // The subjects of seeded grants come first in id order (seed-grants: ten each), as in npm run bench.
      ["rights-of-10", granted.map((s) => `${ctx}/api/v3/rights/of/${s}`), rights],
      ["rights-on-10", granted.map((s) => `${ctx}/api/v3/rights/on/${s}`), rights],
    ];
  }
  const picked = process.env.BENCH_ROWS?.split(",");
  for (const v of servers) v.rows = new Map((await rowsOf(v.server.baseUrl)).filter(([name]) => !picked || picked.includes(name)).map(([name, ...rest]) => [name, rest]));
  const rows = [...servers[0].rows.keys()];
  await (inproc ? inProcess(rows) : underLoad(rows));
  finished = !process.exitCode;
} finally {
  for (const v of servers.slice(1)) await v.server.stop();
  await endRun({ server, pgDb, dataDir, finished });
}

/** Each row loaded over loopback for BENCH_DURATION seconds per round; the server's CPU per request. */
async function underLoad(rows) {
  for (const v of servers) {
    await load(`${v.server.baseUrl}/health/live`, { duration: 3 });
    // Each sub read once (autocannon wants at least one request per connection: the one-path rows repeat theirs).
    for (const [paths, headers, post] of v.rows.values()) await load(v.server.baseUrl, { ...rotating(paths, headers, post), amount: Math.max(paths.length, connections) });
  }
  // Rows interleaved, BENCH_ROUNDS times: what the machine does meanwhile falls on every row alike.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const runs = new Map(rows.flatMap((name) => servers.map((v) => [`${name}${v.name}`, []])));
  for (let round = 0; round < rounds; round++) {
    for (const name of rows) {
      // Each server goes first in every other round: neither always gets the warmer machine.
      for (const v of round % 2 ? [...servers].reverse() : servers) {
        const [paths, headers, post] = v.rows.get(name);
        const main = `/proc/${v.server.pid}/task/${v.server.pid}/stat`;
        const whole = `/proc/${v.server.pid}/stat`;
        const [m0, a0, t0, c0] = [cpuMs(main), cpuMs(whole), process.hrtime.bigint() / 1000n, process.cpuUsage()];
        const r = summary(name, await load(v.server.baseUrl, rotating(paths, headers, post)));
        const per = (ms) => Math.round((ms * 1000) / r.requests);
        const window = process.env.BENCH_CPU_PROF ? ` (profile window ${t0}–${process.hrtime.bigint() / 1000n} µs)` : "";
        const c1 = process.cpuUsage(c0);
        runs.get(`${name}${v.name}`).push({ rps: r.rps, main: per(cpuMs(main) - m0), all: per(cpuMs(whole) - a0), client: per((c1.user + c1.system) / 1000), failed: r.failed, window });
        if (r.failed) process.exitCode = 1;
      }
    }
  }
  const spread = (xs) => (xs.length > 1 ? ` (${Math.min(...xs)}–${Math.max(...xs)})` : "");
  console.log(`\ndatabase ${pgDb ? "postgres" : "embedded"}; server CPU per request, µs${rounds > 1 ? `; median of ${rounds} rounds (range)` : ""}\n\n| row | req/s | main thread | all threads | client | failed |\n|---|---|---|---|---|---|`);
  for (const [name, rs] of runs) {
    const col = (k) => `${median(rs.map((r) => r[k]))}${spread(rs.map((r) => r[k]))}`;
    console.log(`| ${name} | ${col("rps")} | ${col("main")} | ${col("all")} | ${col("client")} | ${rs.reduce((n, r) => n + r.failed, 0)}${rs.map((r) => r.window).join("")} |`);
  }
  if (servers.length > 1) {
    // Paired by round: this checkout's main-thread CPU minus the other's, for the same row just after.
    console.log(`\n| row | main thread, this − other (µs per request), median (range) |\n|---|---|`);
    for (const name of rows) {
      const [ours, theirs] = servers.map((v) => runs.get(`${name}${v.name}`));
      const d = ours.map((r, i) => r.main - theirs[i].main);
      console.log(`| ${name} | ${median(d)}${spread(d)} |`);
    }
  }
}

/**
 * BENCH_INPROC=1: each row's requests handed to the server's own listener inside its process
 * (bench/inproc-hook.mjs), BENCH_CALLS (20,000) per row and round, 16 in flight: the JavaScript time
 * per request without socket, kernel or load generator (the VM's noise still moves it, far less).
 */
async function inProcess(rows) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const spec = rows.map((name) => ({ name, paths: servers[0].rows.get(name)[0], headers: servers[0].rows.get(name)[1] }));
  writeFileSync(inproc.rows, JSON.stringify({ rounds, calls: Number(process.env.BENCH_CALLS ?? 20_000), rows: spec }));
  process.kill(server.pid, "SIGUSR2");
  while (!existsSync(inproc.out)) await sleep(250);
  const { times, checks, windows } = JSON.parse(readFileSync(inproc.out, "utf8"));
  console.log(`\ndatabase ${pgDb ? "postgres" : "embedded"}; in-process, µs of JavaScript per request, median (min–max) of ${rounds} rounds\n\n| row | µs | status | body |\n|---|---|---|---|`);
  for (const name of rows) {
    const ts = times[name];
    const profile = process.env.BENCH_CPU_PROF ? ` (profile windows ${windows[name].join(", ")} µs)` : "";
    console.log(`| ${name} | ${median(ts).toFixed(1)} (${Math.min(...ts).toFixed(1)}–${Math.max(...ts).toFixed(1)})${profile} | ${checks[name].status} | \`${checks[name].body.slice(0, 50)}\` |`);
    if (checks[name].status !== 200) process.exitCode = 1;
  }
}

