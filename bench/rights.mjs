#!/usr/bin/env node
// `node bench/rights.mjs`: the access-right reads under load, next to the trivial route, on a fresh
// database with BENCH_USERS (default 20,000) accounts and BENCH_GRANTS (default 100,000) grants
// (`npm run idp -- seed-users` and `seed-grants`: ten objects per subject). Rows: GET /health/live;
// GET /api/v3/rights/of/{sub} and …/on/{sub} walking 4,000 subs, cached after a warm-up pass; the
// same `of` read for 4,000 other subs, each read for the first time; GET /api/v4/rights/on/{sub}
// (not cached: one or two queries per request). BENCH_DB=postgres, BENCH_DURATION, BENCH_CONNECTIONS
// as for bench/run.mjs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { startServer } from "../scripts/server-lib.mjs";
import { benchEnv, connections, duration, load, rotating, sampleSubs, seedUsers, summary } from "./load.mjs";

const userCount = Number(process.env.BENCH_USERS ?? 20_000);
const grantCount = Number(process.env.BENCH_GRANTS ?? 100_000);
const HOT_SUBS = 4_000;
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
const seeded = spawnSync(process.execPath, [path.join(root, "scripts", "idp.mjs"), "seed-grants", String(grantCount)], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
if (seeded.status !== 0) throw new Error(`seed-grants failed:\n${seeded.stdout}\n${seeded.stderr}`);
console.log(seeded.stdout.trim());
const server = await startServer({ env, logFile: path.join(dataDir, "server.log") });
const basicOAuth = "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64");
const basicRest = "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64");

let finished = false;
try {
  const res = await fetch(`${server.baseUrl}/oauth/te`, {
    method: "POST",
    headers: { authorization: basicOAuth, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=idp_rights_full_access",
  });
  const bearer = { authorization: `Bearer ${(await res.json()).access_token}` };
  const contextPath = new URL(server.baseUrl).pathname;
  // Subjects are the accounts first in id order: the sampled subs, sorted, start with them.
  const subs = (await sampleSubs(server.baseUrl, basicRest, 1000)).sort();
  const hot = subs.slice(0, HOT_SUBS);
  const cold = subs.slice(HOT_SUBS, 2 * HOT_SUBS);
  const paths = (kind, list) => list.map((s) => `${contextPath}/api/${kind}/${s}`);
  const sample = await (await fetch(`${server.baseUrl}/api/v3/rights/of/${hot[0]}`, { headers: bearer })).json();
  console.log(`rights of ${hot[0]}: ${Object.keys(sample).length} objects`);
  await sleep(1_000);
  await load(`${server.baseUrl}/health/live`, { duration: 3 });
  await load(server.baseUrl, { ...rotating(paths("v3/rights/of", hot), bearer), amount: hot.length });
  await load(server.baseUrl, { ...rotating(paths("v3/rights/on", hot), bearer), amount: hot.length });
  const rows = [
    summary("GET /health/live (trivial)", await load(`${server.baseUrl}/health/live`)),
    summary(`GET /api/v3/rights/of/{sub}, ${hot.length} subs, cached`, await load(server.baseUrl, rotating(paths("v3/rights/of", hot), bearer))),
    summary(`GET /api/v3/rights/on/{sub}, ${hot.length} subs, cached`, await load(server.baseUrl, rotating(paths("v3/rights/on", hot), bearer))),
    summary("GET /api/v3/rights/of/{sub}, first read of each sub", await load(server.baseUrl, rotating(paths("v3/rights/of", cold), bearer))),
    summary("GET /api/v4/rights/on/{sub} (not cached)", await load(server.baseUrl, rotating(paths("v4/rights/on", hot), bearer))),
  ];
  const trivial = rows[0].rps;
  console.log(`\nnode ${process.version}, ${connections} connections, ${duration}s each, database: ${pgDb ? "postgres" : "embedded"}, accounts ${userCount}, grants ${grantCount}`);
  console.log("\n| route | req/s | ratio | p50 ms | p99 ms | requests | non-2xx/errors |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${(r.rps / trivial).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failed} |`);
  if (rows.some((r) => r.failed > 0)) process.exitCode = 1;
  finished = !process.exitCode;
} finally {
  await server.stop();
  await pgDb?.drop();
  if (finished) rmSync(dataDir, { recursive: true, force: true });
  else console.log(`server log and data: ${dataDir}`);
}
