#!/usr/bin/env node
// `npm run bench`: load on loopback against the production build. Measures POST /oauth/te
// (client_credentials) and, in the same run and server, GET /health/live as the ceiling a trivial
// route of this app reaches; prints req/s, p50/p99 latency and the ratio token/trivial.
// BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 16), BENCH_DB=postgres (+TEST_DATABASE_URL).
import autocannon from "autocannon";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildIfStale, root } from "../scripts/build-lib.mjs";
import { createPgDatabase, startServer } from "../scripts/server-lib.mjs";

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const dataDir = mkdtempSync(path.join(tmpdir(), "idp-bench-"));
const importFile = path.join(dataDir, "clients.json");
const secret = "bench-secret:0123456789";
writeFileSync(importFile, JSON.stringify({ clients: [{ id: "bench-app", name: "Benchmark", secret, scopes: ["idp_api_sys_users"] }] }));

function load(url, opts = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function summary(name, res) {
  const bad = res.non2xx + res.errors + res.timeouts;
  return { name, rps: Math.round(res.requests.average), p50: res.latency.p50, p99: res.latency.p99, requests: res.requests.total, failed: bad };
}

delete process.env.IDP_CONTEXT_PATH;
buildIfStale();
const env = { IDP_DATA_DIR: dataDir, IDP_IMPORT: importFile, IDP_ADMIN_PASSWORD: "bench-admin-password", NODE_ENV: "production" };
let pgDb;
if (process.env.BENCH_DB === "postgres") {
  pgDb = await createPgDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  Object.assign(env, { DATABASE_URL: pgDb.url, IDP_SECRET_KEY: "bench-secret-key-0123456789abcdefghij" });
}
const server = await startServer({ env, logFile: path.join(dataDir, "server.log") });
const basic = "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64");
const token = {
  method: "POST",
  headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
  body: "grant_type=client_credentials&scope=idp_api_sys_users",
};

try {
  // Warm-up: JIT, connection pools, the client and verified-secret caches.
  await load(`${server.baseUrl}/health/live`, { duration: 3 });
  await load(`${server.baseUrl}/oauth/te`, { ...token, duration: 3 });
  const trivial = summary("GET /health/live (trivial)", await load(`${server.baseUrl}/health/live`));
  // The same POST to an API path with no operation: what Next itself costs for a POST with a body.
  const post = summary("POST same body, unknown API path (JSON 404)", await load(`${server.baseUrl}/api/v3/none`, token));
  const te = summary("POST /oauth/te client_credentials", await load(`${server.baseUrl}/oauth/te`, token));
  const rows = [trivial, post, te];
  console.log(`\nnode ${process.version}, ${connections} connections, ${duration}s each, database: ${pgDb ? "postgres" : "embedded"}\n`);
  console.log("| route | req/s | p50 ms | p99 ms | requests | non-2xx/errors |");
  console.log("|---|---|---|---|---|---|");
  // The 404 row answers non-2xx by design.
  post.failed = "(404 by design)";
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failed} |`);
  const ratio = te.rps / trivial.rps;
  console.log(`\nratio token/trivial: ${ratio.toFixed(2)}  (token/POST-404: ${(te.rps / post.rps).toFixed(2)})`);
  mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  writeFileSync(path.join(root, "bench", "results", `bench-${Date.now()}.json`), JSON.stringify({ connections, duration, rows, ratio }, null, 2));
  if (te.failed > 0 || trivial.failed > 0) process.exitCode = 1;
} finally {
  await server.stop();
  await pgDb?.drop();
}
