#!/usr/bin/env node
// `node bench/rights.mjs`: only the access-right rows of `npm run bench`, next to the trivial route, on
// a fresh database with BENCH_USERS (default 20,000) accounts and BENCH_GRANTS (default 100,000)
// grants (`npm run idp -- seed-users` and `seed-grants`: ten objects per subject). Rows: GET
// /health/live; GET /api/v3/rights/of/{sub} and …/on/{sub} walking 4,000 subs, cached after a warm-up
// pass; the same `of` read for 4,000 other subs, each read for the first time; GET
// /api/v4/rights/on/{sub} (not cached). The cached listings also print their ratios beside the trivial
// route, in req/s and in the server's CPU per request, as bench/run.mjs does. BENCH_DB=postgres,
// BENCH_DURATION, BENCH_CONNECTIONS, BENCH_PAIRS as for bench/run.mjs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIfStale } from "../scripts/build-lib.mjs";
import { startServer } from "../scripts/server-lib.mjs";
import { benchEnv, connections, duration, endRun, load, ratios, sampleSubs, seedUsers, summary, watchServerCpu } from "./load.mjs";
import { rightsRows, seedGrants } from "./rights-rows.mjs";

const userCount = Number(process.env.BENCH_USERS ?? 20_000);
const grantCount = Number(process.env.BENCH_GRANTS ?? 100_000);
const dataDir = mkdtempSync(path.join(tmpdir(), "idp-bench-rights-"));
const importFile = path.join(dataDir, "clients.json");
const secret = "bench-secret:0123456789";
const restPassword = "bench-rest-password";
writeFileSync(importFile, JSON.stringify({ clients: [{ id: "bench-app", name: "Benchmark", secret, restPassword, scopes: ["idp_rights_full_access"] }] }));

delete process.env.IDP_CONTEXT_PATH;
buildIfStale();
const { env, pgDb } = await benchEnv(dataDir, importFile);
console.log(`seeding ${userCount} accounts and ${grantCount} grants …`);
seedUsers(userCount, env);
seedGrants(grantCount, env);
const server = await startServer({ env, logFile: path.join(dataDir, "server.log") });
watchServerCpu(server.pid);

let finished = false;
try {
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { authorization: "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=idp_rights_full_access",
  });
  const bearer = { authorization: `Bearer ${(await res.json()).access_token}` };
  const subs = await sampleSubs(server.baseUrl, "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64"), 1000);
  await sleep(1_000);
  await load(`${server.baseUrl}/health/live`, { duration: 3 });
  const trivial = summary("GET /health/live (trivial)", await load(`${server.baseUrl}/health/live`));
  const rows = [trivial, ...Object.values(await rightsRows(server.baseUrl, bearer, subs))];
  console.log(`\nnode ${process.version}, ${connections} connections, ${duration}s each, database: ${pgDb ? "postgres" : "embedded"}, accounts ${userCount}, grants ${grantCount}`);
  console.log("\n| route | req/s | ratio | p50 ms | p99 ms | requests | non-2xx/errors |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${(r.rps / trivial.rps).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failed} |`);
  // The cached listings are goal rows, measured in pairs beside the trivial route (load.mjs besideTrivial).
  for (const r of rows.filter((x) => x.pairRatios)) console.log(`ratio ${r.name}/trivial: ${ratios(r, trivial)}`);
  if (rows.some((r) => r.failed > 0)) process.exitCode = 1;
  finished = !process.exitCode;
} finally {
  await endRun({ server, pgDb, dataDir, finished });
}
