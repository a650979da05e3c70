#!/usr/bin/env node
// `node bench/sign-in-cpu.mjs`: where the CPU of one sign-in goes, in milliseconds of CPU rather
// than requests per second, so it can be read on a busy machine. Starts the production build
// (embedded database, or BENCH_DB=postgres), runs sign-ins for BENCH_DURATION seconds, and divides
// the CPU time the server process (all its threads), PostgreSQL's processes and this process spent
// by the number of sign-ins. Two rows (BENCH_ROWS=password,passkey picks them): password sign-ins
// through the login form, next to the CPU of one raw argon2id verification, and passkey sign-ins
// from the same page (bench/passkey-sign-in.mjs; the passkeys are added in the portal first),
// against the goal of at most PASSKEY_GOAL_MS of server CPU each. BENCH_ROWS=passkey-steps adds
// the passkey sign-in's requests that can be repeated alone, each measured the same way, and the
// answer's share by difference.
// On PostgreSQL it also counts the statements PostgreSQL receives per sign-in (a counting proxy in
// front of it, bench/pg-statements.mjs), and lists those of one sign-in, request by request.
// BENCH_CPU_PROF=1 profiles the server and prints each row's window on the profile's clock.
import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../scripts/server-lib.mjs";
import { connections, duration } from "./load.mjs";
import { countingProxy } from "./pg-statements.mjs";
import { argon2Ceiling, Browser, signInFixtures, signInLoad, signInOnce } from "./sign-in.mjs";
import { passkeyLoad, passkeyOptions, passkeyPage, passkeySignInOnce, registerPasskeys } from "./passkey-sign-in.mjs";

/** The goal for a passkey sign-in: no argon2id in it, so little more than the pages and a signature check. */
const PASSKEY_GOAL_MS = 5;
const rows = (process.env.BENCH_ROWS ?? "password,passkey").split(",");

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
 * of each of its requests, in the order PostgreSQL got them. `once(browser, onStep)` is one sign-in.
 */
async function statementsOfOneSignIn(counter, once) {
  const browser = new Browser(0);
  await once(browser);
  let step;
  const flush = () => {
    if (step) console.log(`  ${step}: ${counter.recent.length}${counter.recent.map((s) => `\n    ${s}`).join("")}`);
    counter.recent = [];
  };
  counter.record = true;
  await once(browser, (next) => {
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

/**
 * One row: a warm-up, then BENCH_DURATION seconds of sign-ins (`load`: signInLoad's options) with the
 * CPU of the server, its main thread, PostgreSQL and this process over them, per sign-in.
 */
async function measure(label, load, unit = "sign-ins") {
  await signInLoad(server.baseUrl, { ...load, workers: connections, seconds: 3 });
  // The main thread is the task whose id is the process's: JavaScript runs there, argon2id does not.
  const mainThread = `/task/${server.pid}`;
  const before = { main: cpuOf(server.pid, mainThread), server: cpuOf(server.pid), pg: cpuOfPostgres(), own: ownCpu(), statements: proxy?.counter.statements ?? 0 };
  const window = [process.hrtime.bigint() / 1000n];
  const r = await signInLoad(server.baseUrl, { ...load, workers: connections, seconds: duration });
  window.push(process.hrtime.bigint() / 1000n);
  const n = r.requests;
  const server_ = (cpuOf(server.pid) - before.server) / n;
  const main = (cpuOf(server.pid, mainThread) - before.main) / n;
  const pg = pgDb ? (cpuOfPostgres() - before.pg) / n : undefined;
  const own = (ownCpu() - before.own) / n;
  const statements = proxy ? (proxy.counter.statements - before.statements) / n : undefined;
  console.log(`\n${label}: ${n} ${unit} (${r.rps}/s, ${r.failed} failed), database ${pgDb ? "postgres" : "embedded"}`);
  // The profile's clock is the same monotonic clock: its samples between these two are the load's.
  if (process.env.BENCH_CPU_PROF) console.log(`load window (µs, monotonic): ${window.join(" ")} ${n}`);
  if (r.failed) process.exitCode = 1;
  return { n, failed: r.failed, server: server_, main, pg, own, statements };
}

/**
 * The passkey sign-in's requests that can be repeated alone, each row measured as a whole sign-in is
 * (a row's "sign-in" is one repetition): the authorization request with the page (a new flow each
 * time), the page again and the options again (each browser keeps one flow; the first repetition
 * makes it), the three together, and the whole sign-in. The answer cannot be repeated (its challenge
 * is spent): its share is the whole less the three together.
 */
async function passkeySteps(authenticators) {
  const pages = new WeakMap();
  const pageOf = async (browser) => pages.get(browser) ?? pages.set(browser, await passkeyPage(server.baseUrl, browser)).get(browser);
  const steps = [
    ["authorization request and page", (browser) => passkeyPage(server.baseUrl, browser)],
    ["the page again, same flow", async (browser) => {
      const page = await browser.fetch((await pageOf(browser)).loginUrl);
      if (page.status !== 200) throw new Error(`the page answered ${page.status}`);
    }],
    ["the options again, same flow", async (browser) => passkeyOptions(browser, await pageOf(browser))],
    ["authorization request, page and options", async (browser) => passkeyOptions(browser, await passkeyPage(server.baseUrl, browser))],
    ["whole passkey sign-in", (browser, i) => passkeySignInOnce(server.baseUrl, browser, authenticators[i])],
  ];
  const got = [];
  for (const [name, signIn] of steps) {
    const m = await measure(`passkey step: ${name}`, { name, signIn }, "repetitions");
    got.push(m);
    console.log(`CPU ms per repetition: server ${ms(m.server)} (main thread ${ms(m.main)}), postgres ${ms(m.pg)}${m.statements === undefined ? "" : `, statements ${m.statements.toFixed(1)}`}`);
  }
  const [before, whole] = [got[3], got[4]];
  console.log(`\nthe answer, by difference: server ${ms(whole.server - before.server)} ms (main thread ${ms(whole.main - before.main)}), postgres ${before.pg === undefined ? "-" : ms(whole.pg - before.pg)}`);
}

const ms = (x) => (x === undefined ? "-" : x.toFixed(1));
const statementsLine = (m) => `statements per sign-in (BEGIN and COMMIT counted): ${m.statements.toFixed(1)}`;

try {
  if (rows.includes("password")) {
    // The ceiling while the server idles; measure() warms the server up after it.
    const a0 = ownCpu();
    const verified = (await argon2Ceiling(fixtures.passwordHash, 3)) * 3;
    const argon2Ms = (ownCpu() - a0) / verified;
    const m = await measure("password sign-ins through the login form", {});
    console.log(`CPU ms per sign-in: server ${ms(m.server)} (main thread ${ms(m.main)}; argon2id alone ${argon2Ms.toFixed(1)}), postgres ${ms(m.pg)}, bench client ${ms(m.own)}`);
    if (proxy) {
      console.log(statementsLine(m));
      await statementsOfOneSignIn(proxy.counter, (browser, onStep) => signInOnce(server.baseUrl, browser, "bench-user-0", onStep));
    }
  }
  if (rows.includes("passkey")) {
    const authenticators = await registerPasskeys(server.baseUrl, fixtures.users.map((u) => u.sub));
    const m = await measure("passkey sign-ins from the sign-in page", passkeyLoad(server.baseUrl, authenticators));
    console.log(
      `CPU ms per passkey sign-in: server ${ms(m.server)} (main thread ${ms(m.main)}), postgres ${ms(m.pg)}, bench client ${ms(m.own)}; goal at most ${PASSKEY_GOAL_MS} ms of server CPU: ${m.server <= PASSKEY_GOAL_MS ? "met" : "NOT met"}`,
    );
    if (proxy) {
      console.log(statementsLine(m));
      await statementsOfOneSignIn(proxy.counter, (browser, onStep) => passkeySignInOnce(server.baseUrl, browser, authenticators[0], onStep));
    }
  }
  if (rows.includes("passkey-steps")) await passkeySteps(await registerPasskeys(server.baseUrl, fixtures.users.map((u) => u.sub)));
} finally {
  await server.stop();
  await proxy?.close();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
