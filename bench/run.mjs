#!/usr/bin/env node
// `npm run bench`: load on loopback against the production build, with BENCH_USERS (default 100,000)
// accounts seeded through `npm run idp -- seed-users` before the server starts. In one run and
// server: GET /health/live as the ceiling a trivial route of this app reaches, a POST that does no
// work, POST /oauth/te, GET /api/v3/users/{sub} over thousands of different subs (cached, then each
// sub read for the first time), the v1 mask search `surname=Ива*`, a user-token read of /oauth/me,
// password sign-ins through the login form next to raw argon2id verifications of the same hash
// (bench/sign-in.mjs), passkey sign-ins from the same page (bench/passkey-sign-in.mjs), and a
// burst of BENCH_BURST (200) parallel sign-ins with the server's memory,
// then the console overview read by a signed-in administrator (bench/dashboard.mjs, goal under 300 ms) and pages of its users list;
// with accounts, also BENCH_GRANTS (default 100,000) grants and the rights listings (bench/rights-rows.mjs),
// and BENCH_GROUPS (default 10,000) groups and an RQL group search (bench/groups-rows.mjs).
// Prints req/s, p50/p99, the ratios to the trivial route, and the server's resident memory idle
// after start and after load. The server runs one process (IDP_WORKERS=1): the rows are per process.
// Then the comparison (bench/compare.mjs): POST /oauth/te client_credentials and the
// bearer read GET /api/v3/users/{sub} (over the sign-in accounts, cached) on this server with the
// fast path (measured first, on the fresh server), then, one after another on the same database,
// through Next (IDP_FAST_PATH=0), with IDP_WORKERS=2 (PostgreSQL only), and the token endpoint of
// panva's oidc-provider started here (bench/oidc-provider-peer.mjs: same client id, secret and scope,
// ES256 JWT access tokens, in-memory): grants/s, read req/s, p99, RSS of each server's process tree,
// and the goals marked met / not met.
// Variables:
//   BENCH_DURATION   seconds per row (default 10)
//   BENCH_CONNECTIONS  autocannon connections (default 16)
//   BENCH_USERS      accounts seeded before the start (default 100,000; 0: no account rows)
//   BENCH_GRANTS     access-right grants seeded among them (default 100,000; 0: no rights rows)
//   BENCH_GROUPS     groups seeded (default 10,000; 0: no group row)
//   BENCH_BURST      parallel sign-ins of the burst row (default 200)
//   BENCH_PAIRS      alternating trivial/row pairs of each goal row (default 10; load.mjs besideTrivial)
//   BENCH_DB=postgres  a throw-away database on TEST_DATABASE_URL's server instead of the embedded one
//   BENCH_CPU_PROF=1 the main server writes a .cpuprofile into bench/results when it stops
//   BENCH_COMPARE=0  skips the comparison section (about 1.5 min at 10 s rows, 2–2.5 min on PostgreSQL)
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { startServer } from "../scripts/server-lib.mjs";
import { benchEnv, connections, duration, endRun, load, ratios, rotating, rssMb, sampleSubs, seedUsers, summary, watchServerCpu } from "./load.mjs";
import { rightsRows, seedGrants } from "./rights-rows.mjs";
import { groupRows, seedGroups } from "./groups-rows.mjs";
import { argon2Ceiling, signInBurst, signInFixtures, signInLoad, userAccessToken } from "./sign-in.mjs";
import { passkeyLoad, registerPasskeys } from "./passkey-sign-in.mjs";
import { argon2HashCeiling, passwordChanges, SECURITY_SCOPES, securityReads } from "./account-security.mjs";
import { measureServer, printComparison, startOidcProvider, treeRssMb } from "./compare.mjs";
import { DASHBOARD_GOAL_MS, dashboardRow, usersListRow } from "./dashboard.mjs";

const compare = process.env.BENCH_COMPARE !== "0";
const userCount = Number(process.env.BENCH_USERS ?? 100_000);
const grantCount = userCount > 0 ? Number(process.env.BENCH_GRANTS ?? 100_000) : 0;
const groupCount = userCount > 0 ? Number(process.env.BENCH_GROUPS ?? 10_000) : 0;
// Reads cycle through this many subs: all of them cached after the warm-up, none of them one hot entry.
const HOT_SUBS = 4_000;
const dataDir = mkdtempSync(path.join(tmpdir(), "idp-bench-"));
const importFile = path.join(dataDir, "clients.json");
const secret = "bench-secret:0123456789";
const restPassword = "bench-rest-password";
// Sign-in accounts: one per browser of the burst, which is also enough for the steady sign-in row.
const BURST = Number(process.env.BENCH_BURST ?? 200);
const signIn = await signInFixtures(Math.max(BURST, connections));
writeFileSync(
  importFile,
  JSON.stringify({ clients: [{ id: "bench-app", name: "Benchmark", secret, restPassword, scopes: [...new Set(["idp_api_sys_users", ...SECURITY_SCOPES.split(" "), "idp_rights_full_access", "idp_api_sys_groups"])] }, signIn.client], users: signIn.users }),
);

delete process.env.IDP_CONTEXT_PATH;
buildIfStale();
const { env, pgDb } = await benchEnv(dataDir, importFile);
// The rows measure one process (its RSS, its ratios): one worker, whatever IDP_WORKERS defaults to.
env.IDP_WORKERS = "1";
let seedSeconds;
if (userCount > 0) {
  console.log(`seeding ${userCount} accounts …`);
  seedSeconds = seedUsers(userCount, env);
  if (grantCount > 0) seedGrants(grantCount, env);
  if (groupCount > 0) seedGroups(groupCount, env);
}
const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench", "results")}`] : [];
let server = await startServer({ env, nodeArgs, logFile: path.join(dataDir, "server.log") });
watchServerCpu(server.pid);
const rss = {};
const basicOAuth = "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64");
const basicRest = "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64");
const token = {
  method: "POST",
  headers: { authorization: basicOAuth, "content-type": "application/x-www-form-urlencoded" },
  body: "grant_type=client_credentials&scope=idp_api_sys_users",
};

async function accessToken(scope = "idp_api_sys_users") {
  const res = await fetch(`${server.baseUrl}/oauth/te`, { ...token, body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}` });
  if (res.status !== 200) throw new Error(`no token: ${res.status}`);
  return (await res.json()).access_token;
}

/** The account rows: cached reads over HOT_SUBS subs, first reads of the rest, and the mask search. */
async function accountRows() {
  const contextPath = new URL(server.baseUrl).pathname;
  // Highest ids first: the hot subs of these rows (the first HOT_SUBS) are then none of the lowest
  // ids, which the rights rows read (the subjects of seeded grants, rights-rows.mjs). A cached entry
  // lives 3¾–5 min (keyed-cache.ts): the entries these rows load all expire within the same 75 s,
  // about four minutes later, which with shared subs fell on the rights rows and made them reload
  // thousands of accounts from the database mid-row (bench/README.md, "expiry wave").
  const subs = (await sampleSubs(server.baseUrl, basicRest, 1000)).sort().reverse();
  const paths = subs.map((s) => `${contextPath}/api/v3/users/${s}`);
  // With few accounts (a small BENCH_USERS), half of them are read cached and half for the first time.
  const hotCount = Math.min(HOT_SUBS, Math.floor(paths.length / 2));
  const hot = paths.slice(0, hotCount);
  // Nor do the first reads take the lowest ids when there are others to take: on PostgreSQL the
  // row gets through all 12,000 others and more in its 10 s, and the rights rows would meet the
  // expiry of those it reached too.
  // As many as the rights rows read (rights-rows.mjs takes its hot subs as hotCount is taken here).
  const reserved = grantCount > 0 ? hotCount : 0;
  const others = paths.slice(hotCount);
  const cold = others.length - reserved >= connections ? others.slice(0, others.length - reserved) : others;
  const bearer = { authorization: `Bearer ${await accessToken()}` };
  await load(server.baseUrl, { ...rotating(hot, bearer), amount: hot.length });
  const cached = summary(`GET /api/v3/users/{sub}, ${hot.length} subs, cached`, await load(server.baseUrl, rotating(hot, bearer)));
  const first = summary(`GET /api/v3/users/{sub}, first read of each sub`, await load(server.baseUrl, rotating(cold, bearer)));
  first.uncached = Math.min(first.requests, cold.length);
  const searchUrl = `${server.baseUrl}/api/v1/users?query=${encodeURIComponent("surname=Ива*")}`;
  const search = summary("GET /api/v1/users?query=surname=Ива* (100 records)", await load(searchUrl, { headers: { authorization: basicRest } }));
  // Account security: the reads of …/auth, …/state, …/props over the cached subs, and password
  // changes over the others (each account changed about once: its history stays short).
  const security = { authorization: `Bearer ${await accessToken(SECURITY_SCOPES)}` };
  const securityRows = await securityReads(server.baseUrl, contextPath, security, subs.slice(0, hotCount));
  const hashesPerS = await argon2HashCeiling(duration);
  const changes = await passwordChanges(server.baseUrl, contextPath, security, subs.slice(hotCount));
  const rights = grantCount > 0 ? await rightsRows(server.baseUrl, { authorization: `Bearer ${await accessToken("idp_rights_full_access")}` }, subs) : undefined;
  const groups = groupCount > 0 ? await groupRows(server.baseUrl, { authorization: `Bearer ${await accessToken("idp_api_sys_groups")}` }, groupCount) : undefined;
  return { cached, first, search, securityRows, changes, hashesPerS, rights, groups };
}

const compared = {};
const contextPath = new URL(server.baseUrl).pathname;
// The comparison's read: the client_credentials token reading the sign-in accounts (there with any
// BENCH_USERS) in turn, each cached after the warm-up pass — the "users, cached" row on fewer subs.
const readPaths = signIn.users.map((u) => `${contextPath}/api/v3/users/${encodeURIComponent(u.sub)}`);
const tokenRows = (label, s, idle) => measureServer({ label, pid: s.pid, origin: s.baseUrl, tokenUrl: `${s.baseUrl}/oauth/te`, tokenRequest: token, readPaths, output: s.output, idle });

/** The comparison's other servers, one after another (the embedded database opens in one process only). */
async function compareServers() {
  await server.stop();
  for (const [key, label, extra] of [
    ["next", "this service through Next (IDP_FAST_PATH=0)", { IDP_FAST_PATH: "0" }],
    ...(pgDb ? [["workers2", "this service, fast path, IDP_WORKERS=2", { IDP_WORKERS: "2" }]] : []),
  ]) {
    server = await startServer({ env: { ...env, ...extra }, logFile: path.join(dataDir, `server-${key}.log`) });
    try {
      compared[key] = await tokenRows(label, server);
    } finally {
      await server.stop();
    }
  }
  const peer = await startOidcProvider({ id: "bench-app", secret, scope: "idp_api_sys_users" });
  try {
    compared.peer = await measureServer({ label: "oidc-provider 9 (in-memory, ES256 JWT)", pid: peer.pid, origin: peer.origin, tokenUrl: `${peer.origin}/token`, tokenRequest: token });
  } finally {
    await peer.stop();
  }
}

let finished = false;
try {
  await sleep(2_000);
  rss.idle = rssMb(server.pid);
  // First on the fresh server, so its memory after load is that of these two rows only, as on the other servers.
  if (compare) compared.fast = await tokenRows("this service, fast path", server, treeRssMb(server.pid));
  // Warm-up: JIT, connection pools, the client and verified-secret caches.
  await load(`${server.baseUrl}/health/live`, { duration: 3 });
  await load(`${server.baseUrl}/oauth/te`, { ...token, duration: 3 });
  const trivial = summary("GET /health/live (trivial)", await load(`${server.baseUrl}/health/live`));
  // The same POST to an API path with no operation: what Next itself costs for a POST with a body.
  const post = summary("POST same body, unknown API path (JSON 404)", await load(`${server.baseUrl}/api/v3/none`, token));
  const te = summary("POST /oauth/te client_credentials", await load(`${server.baseUrl}/oauth/te`, token));
  const accounts = userCount > 0 ? await accountRows() : undefined;
  // A user-mode bearer token (from a sign-in) reading the user's own claims.
  const me = summary("GET /oauth/me, user bearer token", await load(`${server.baseUrl}/oauth/me`, { headers: { authorization: `Bearer ${await userAccessToken(server.baseUrl, "bench-user-0")}` } }));
  // The ceiling first, while the server idles: the same hash verified in this process.
  const argon2PerS = await argon2Ceiling(signIn.passwordHash, duration);
  const signIns = await signInLoad(server.baseUrl, { workers: connections, seconds: duration });
  // The same browsers and accounts with a passkey each, added in the portal first (a password sign-in each).
  const authenticators = await registerPasskeys(server.baseUrl, signIn.users.slice(0, connections).map((u) => u.sub));
  await signInLoad(server.baseUrl, { ...passkeyLoad(server.baseUrl, authenticators), workers: connections, seconds: 3 });
  const passkeySignIns = await signInLoad(server.baseUrl, { ...passkeyLoad(server.baseUrl, authenticators), workers: connections, seconds: duration });
  const burst = await signInBurst(server.baseUrl, server.pid, BURST);
  // After the sign-in rows, whose events the overview's charts count.
  const dashboard = await dashboardRow(server.baseUrl);
  const usersList = await usersListRow(server.baseUrl);
  rss.afterLoad = rssMb(server.pid);
  await sleep(5_000);
  rss.afterLoadIdle = rssMb(server.pid);

  const rows = [trivial, post, te, ...(accounts ? [accounts.cached, accounts.first, accounts.search, ...accounts.securityRows, accounts.changes, ...Object.values(accounts.rights ?? {}), ...Object.values(accounts.groups ?? {})] : []), me, signIns, passkeySignIns, burst];
  console.log(`\nnode ${process.version}, ${connections} connections, ${duration}s each, database: ${pgDb ? "postgres" : "embedded"}, accounts: ${userCount}`);
  if (seedSeconds !== undefined) console.log(`seed-users ${userCount}: ${seedSeconds.toFixed(1)} s`);
  console.log("\n| route | req/s | p50 ms | p99 ms | requests | non-2xx/errors |");
  console.log("|---|---|---|---|---|---|");
  // The 404 row answers non-2xx by design.
  post.failed = "(404 by design)";
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failed} |`);
  console.log(
    `\nconsole overview (console.dashboard.get, ${dashboard.accounts} accounts, ${dashboard.signIns24h} sign-in events in 24 h): p50 ${dashboard.p50} ms, max ${dashboard.max} ms of ${dashboard.rounds} reads; goal under ${DASHBOARD_GOAL_MS} ms: ${dashboard.max < DASHBOARD_GOAL_MS ? "met" : "NOT met"}`,
  );
  console.log(
    `console users list (console.users.list, 25 a page): every order both ways, first and second page: p50 ${usersList.plain.p50} ms, max ${usersList.plain.max} ms of ${usersList.plain.reads} reads; searched: p50 ${usersList.searched.p50} ms, max ${usersList.searched.max} ms of ${usersList.searched.reads} reads`,
  );
  const ratio = te.rps / trivial.rps;
  console.log(`\nratio token/trivial: ${ratio.toFixed(2)}  (token/POST-404: ${(te.rps / post.rps).toFixed(2)})`);
  if (accounts) {
    console.log(`ratio users(cached)/trivial: ${(accounts.cached.rps / trivial.rps).toFixed(2)}  (p99 ${accounts.cached.p99} ms)`);
    console.log(`ratio users(first read)/trivial: ${(accounts.first.rps / trivial.rps).toFixed(2)}  (p99 ${accounts.first.p99} ms; ${accounts.first.uncached} of ${accounts.first.requests} requests were first reads)`);
    console.log(`v1 search surname=Ива*: p50 ${accounts.search.p50} ms, p99 ${accounts.search.p99} ms, ${accounts.search.rps} req/s`);
    for (const r of Object.values(accounts.rights ?? {})) console.log(`ratio ${r.name}/trivial: ${ratios(r, trivial)}`);
    for (const r of Object.values(accounts.groups ?? {})) console.log(`ratio group search/trivial: ${ratios(r, trivial)}`);
    for (const r of accounts.securityRows) console.log(`ratio ${r.name.split(",")[0]}/trivial: ${ratios(r, trivial)}`);
    console.log(`password changes/s: ${accounts.changes.rps} vs ${accounts.hashesPerS} raw argon2id hashes/s in one process: ${(accounts.changes.rps / accounts.hashesPerS).toFixed(2)}`);
  }
  console.log(`ratio user bearer read (/oauth/me)/trivial: ${(me.rps / trivial.rps).toFixed(2)}  (p99 ${me.p99} ms)`);
  console.log(`sign-ins/s: ${signIns.rps} through the form vs ${argon2PerS} raw argon2id verifications/s in one process: ${(signIns.rps / argon2PerS).toFixed(2)} of the ceiling`);
  console.log(`passkey sign-ins/s: ${passkeySignIns.rps} vs password sign-ins/s ${signIns.rps}: ${(passkeySignIns.rps / signIns.rps).toFixed(2)}×`);
  console.log(`burst of ${BURST} parallel sign-ins: ${burst.seconds} s, p50 ${burst.p50} ms, p99 ${burst.p99} ms, ${burst.failed} failed; RSS MB ${burst.rss.before} → peak ${burst.rss.peak} → ${burst.rss.after} 3 s later`);
  console.log(`server RSS MB: idle after start ${rss.idle}, right after load ${rss.afterLoad}, 5 s later ${rss.afterLoadIdle}`);
  let comparison;
  if (compare) {
    await compareServers();
    comparison = { servers: compared, ratios: printComparison(compared, pgDb ? "postgres" : "embedded") };
    for (const r of Object.values(compared)) rows.push(r.grants, ...(r.read ? [r.read] : []));
  }
  mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  const result = { db: pgDb ? "postgres" : "embedded", connections, duration, userCount, grantCount, groupCount, seedSeconds, rows, ratio, rss, argon2PerS, hashesPerS: accounts?.hashesPerS, comparison };
  writeFileSync(path.join(root, "bench", "results", `bench-${Date.now()}.json`), JSON.stringify(result, null, 2));
  if (rows.some((r) => typeof r.failed === "number" && r.failed > 0)) process.exitCode = 1;
  finished = !process.exitCode;
} finally {
  // An embedded database of 100,000 accounts takes ~400 MB; a failed run keeps it and the server log.
  await endRun({ server, pgDb, dataDir, finished });
}
