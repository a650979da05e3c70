// Helpers of bench/run.mjs: autocannon runs, their summary rows, the server's resident memory, and
// seeding accounts through the real command.
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root } from "../scripts/build-lib.mjs";
import { createPgDatabase } from "../scripts/server-lib.mjs";

export const duration = Number(process.env.BENCH_DURATION ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

/** One autocannon run; with BENCH_WINDOWS=1 it prints its window on the CPU profile's clock (µs). */
export function load(url, opts = {}) {
  const t0 = process.hrtime.bigint() / 1000n;
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...opts }, (err, res) => {
      if (process.env.BENCH_WINDOWS) console.log(`[window] ${t0} ${process.hrtime.bigint() / 1000n} ${res?.requests?.total} ${url} ${opts.requests ? "rotating" : ""}`);
      return err ? reject(err) : resolve(res);
    });
  });
}

/**
 * GETs (POSTs of the body `post`, when given) that walk `paths` in order across all connections (autocannon repeats a request list per
 * connection, which would have 16 connections ask for the same path at the same moment).
 */
export function rotating(paths, headers, post) {
  let next = 0;
  const method = post ? "POST" : "GET";
  return { headers, requests: [{ method, ...(post ? { body: post } : {}), setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }] };
}

export function summary(name, res) {
  const bad = res.non2xx + res.errors + res.timeouts;
  return { name, rps: Math.round(res.requests.average), p50: res.latency.p50, p99: res.latency.p99, requests: res.requests.total, failed: bad };
}

const TICK_MS = 10; // /proc reports CPU in clock ticks of 1/100 s on Linux

/** CPU time (user + system, ms) that /proc's stat file `file` reports: `/proc/<pid>/stat` for a whole process, `/proc/<pid>/task/<tid>/stat` for one thread. */
export function cpuMs(file) {
  const f = readFileSync(file, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** @type {number | undefined} the server process whose CPU besideTrivial measures (watchServerCpu). */
let watchedPid;
/** besideTrivial also measures the server's CPU per request, from /proc/`pid`/stat (all its threads). */
export function watchServerCpu(pid) {
  watchedPid = pid;
}

/**
 * One run with the server's CPU per request (µs, all threads), when a server is watched. Its rate is
 * its responses over its duration: autocannon's average of whole seconds leaves out most of a run
 * of two or three seconds.
 */
async function measuredRun(name, url, opts) {
  const before = watchedPid === undefined ? undefined : cpuMs(`/proc/${watchedPid}/stat`);
  const res = await load(url, opts);
  const row = { ...summary(name, res), rps: res.requests.total / res.duration };
  const cpuUs = before === undefined || !row.requests ? undefined : ((cpuMs(`/proc/${watchedPid}/stat`) - before) * 1000) / row.requests;
  return { ...row, cpuUs };
}

/**
 * A goal row measured beside the trivial route: BENCH_PAIRS (default 10) pairs of a trivial run and a
 * run of the row, a quarter of the usual duration each (as long in all as five pairs of halves, the
 * default until 2026-11-27). The run's first trivial row is taken with an idle, small heap; these in
 * the state the row itself meets (caches full, heap grown, the machine as busy as it is now). On this
 * VM the trivial route's rate drifts by up to half over tens of seconds (bench/README.md), so the
 * two runs of a pair are short, to meet the same machine, and every other pair runs the row first,
 * so that a drift within pairs does not favour either; the row's ratio is the median of its pairs'.
 * With a watched server, each pair also gives the ratio of the server's CPU per request (trivial ÷
 * row): the same quantity as the req/s ratio while the server's one thread is saturated, as it is
 * at these rates, but untouched by time the VM's host takes the core away (steal), which moves
 * req/s and not CPU time.
 * @param {string} baseUrl @param {string} name @param {object} opts autocannon options of the row
 */
export async function besideTrivial(baseUrl, name, opts) {
  const pairs = Math.max(1, Number(process.env.BENCH_PAIRS ?? 10));
  const part = Math.max(1, duration / 4);
  const trivial = [];
  const runs = [];
  const trivialRun = async () => trivial.push(await measuredRun("trivial", `${baseUrl}/health/live`, { duration: part }));
  const rowRun = async () => runs.push(await measuredRun(name, baseUrl, { ...opts, duration: part }));
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      await trivialRun();
      await rowRun();
    } else {
      await rowRun();
      await trivialRun();
    }
  }
  const pairRatios = runs.map((r, i) => r.rps / trivial[i].rps);
  const cpuRatios = runs.every((r, i) => r.cpuUs && trivial[i].cpuUs) ? runs.map((r, i) => trivial[i].cpuUs / r.cpuUs) : undefined;
  return {
    name,
    rps: Math.round(mean(runs.map((r) => r.rps))),
    p50: median(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    failed: runs.reduce((n, r) => n + r.failed, 0),
    trivialNow: Math.round(mean(trivial.map((r) => r.rps))),
    pairRatios,
    cpu: cpuRatios && { ratios: cpuRatios, rowUs: median(runs.map((r) => r.cpuUs)), trivialUs: median(trivial.map((r) => r.cpuUs)) },
  };
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** The middle value; of an even count, the mean of the two middle ones (the upper one alone would favour the row). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The ratios of a goal row, for the printout: to the run's first trivial row, beside it in req/s, and in the server's CPU per request. */
export function ratios(row, trivial) {
  const r = row.pairRatios;
  const range = (xs) => (xs.length > 1 ? ` (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})` : "");
  const beside = r ? `; ${median(r).toFixed(2)} of the trivial route beside it, median of ${r.length} alternating pairs${range(r)}` : "";
  const c = row.cpu;
  const cpu = c ? `; server CPU per request ${Math.round(c.rowUs)} µs vs ${Math.round(c.trivialUs)} µs: ${median(c.ratios).toFixed(2)}${range(c.ratios)}` : "";
  return `${(row.rps / trivial.rps).toFixed(2)}  (p99 ${row.p99} ms${beside}${cpu})`;
}

/** Resident memory of a process in MB, as the kernel counts it (VmRSS). */
export function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/** Runs `npm run idp -- seed-users <count>` against `env`'s database; returns the seconds it reported. */
export function seedUsers(count, env) {
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "idp.mjs"), "seed-users", String(count)], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  const m = /seeded (\d+) accounts in ([\d.]+) s/.exec(r.stdout ?? "");
  if (r.status !== 0 || !m) throw new Error(`seed-users failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return Number(m[2]);
}

/**
 * Subs of seeded accounts, through the public v1 search: `uid=0*` … `uid=f*` (seeded subs are UUIDs),
 * up to `perPrefix` each.
 */
export async function sampleSubs(baseUrl, basic, perPrefix) {
  const subs = [];
  for (const hex of "0123456789abcdef") {
    const res = await fetch(`${baseUrl}/api/v1/users?query=${encodeURIComponent(`uid=${hex}*`)}&limit=${perPrefix}`, { headers: { authorization: basic } });
    if (res.status !== 200) throw new Error(`v1 search answered ${res.status}: ${await res.text()}`);
    for (const record of await res.json()) subs.push(record.attrs.uid);
  }
  return subs;
}

/**
 * The server's environment for a bench run in `dataDir` importing `importFile`: the embedded database,
 * or with BENCH_DB=postgres a throw-away database on TEST_DATABASE_URL's server (drop it with pgDb.drop()).
 */
export async function benchEnv(dataDir, importFile) {
  const env = { IDP_DATA_DIR: dataDir, IDP_IMPORT: importFile, IDP_ADMIN_PASSWORD: "bench-admin-password", NODE_ENV: "production" };
  if (process.env.BENCH_DB !== "postgres") return { env, pgDb: undefined };
  const pgDb = await createPgDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  Object.assign(env, { DATABASE_URL: pgDb.url, IDP_SECRET_KEY: "bench-secret-key-0123456789abcdefghij" });
  return { env, pgDb };
}

/**
 * The end of a bench run: stops the server, drops the throw-away PostgreSQL database, and removes
 * the data dir when the run `finished`; a failed run keeps it (with the server log) and says where.
 */
export async function endRun({ server, pgDb, dataDir, finished }) {
  await server?.stop();
  await pgDb?.drop();
  if (finished) rmSync(dataDir, { recursive: true, force: true });
  else console.log(`server log and data: ${dataDir}`);
}
