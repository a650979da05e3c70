#!/usr/bin/env node
// Measures the production server of server/serve/ with the fast path on and off (IDP_FAST_PATH=0),
// on one data dir and the same seeded accounts: req/s (autocannon, BENCH_CONNECTIONS, BENCH_DURATION)
// and the server's CPU µs per request (/proc/<pid>/stat), for GET /health/live, POST /oauth/te
// (client_credentials) and a cached bearer read (GET /api/v3/users/{sub}/state). Before measuring, it
// sends the same sample requests (odd ones included) to both and prints every difference in status,
// headers that matter, body and log line.
//   nice npm run build && node scripts/fast-path-probe.mjs            (BENCH_DB=postgres for PostgreSQL)
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nextBin, serverEntry } from "./build-lib.mjs";
import { startServer } from "./server-lib.mjs";
import { benchEnv, load, rotating, rssMb, sampleSubs, seedUsers } from "../bench/load.mjs";
import { SECURITY_SCOPES } from "../bench/account-security.mjs";

const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in ms (USER_HZ 100)
};
const dataDir = mkdtempSync(path.join(tmpdir(), "idp-fast-"));
const importFile = path.join(dataDir, "clients.json");
const secret = "bench-secret:0123456789", restPassword = "bench-rest-password";
writeFileSync(importFile, JSON.stringify({ clients: [{ id: "bench-app", name: "B", secret, restPassword, scopes: SECURITY_SCOPES.split(" ") }] }));
const { env, pgDb } = await benchEnv(dataDir, importFile);
seedUsers(Number(process.env.N ?? 2000), env);
const basicOAuth = "Basic " + Buffer.from(`bench-app:${encodeURIComponent(secret)}`).toString("base64");
const basicRest = "Basic " + Buffer.from(`bench-app:${restPassword}`).toString("base64");
const form = { authorization: basicOAuth, "content-type": "application/x-www-form-urlencoded" };
const grant = `grant_type=client_credentials&scope=${encodeURIComponent(SECURITY_SCOPES)}`;
const entry = [serverEntry];

/** The sample: [method, path below the context path, headers, body]; {sub} and {bearer} filled in. */
const SAMPLE = [
  ["GET", "/health/live"], ["HEAD", "/health/live"], ["POST", "/health/live"], ["OPTIONS", "/health/live"], ["GET", "/health/live/"],
  ["GET", "/health/live?x=1"], ["GET", "/health/l%69ve"], ["GET", "/health//live"],
  ["POST", "/oauth/te", form, grant], ["POST", "/oauth/te", form, "grant_type=password"], ["POST", "/oauth/te", { "content-type": "application/x-www-form-urlencoded" }, grant],
  ["POST", "/oauth/te", form, "x=" + "a".repeat(70_000)], ["GET", "/oauth/te"], ["DELETE", "/oauth/te"],
  ["GET", "/api/v3/users/{sub}/state", "bearer"], ["GET", "/api/v3/users/{sub}/state"], ["GET", "/api/v3/users/nobody/state", "bearer"],
  ["GET", "/api/v3/users/x%zz/state", "bearer"], ["GET", "/api/v3/users/x%2Fy/state", "bearer"], ["GET", "/api/v3/users/%E2%82%AC/state", "bearer"],
  ["PUT", "/api/v3/users/{sub}/state", "bearer", "{}"], ["GET", "/api/v3/no/such/route", "bearer"], ["GET", "/api/v1/users?query=uid%3D0*&limit=2", basicRest],
  ["GET", "/.well-known/openid-configuration"], ["GET", "/api/openapi.json"], ["GET", "/console/events/export"],
];
// Differ by nature between two runs or two servers: ignored in the comparison.
const VOLATILE = new Set(["date", "x-request-id", "connection", "keep-alive", "transfer-encoding", "content-length", "etag", "set-cookie"]);

async function sample(server, sub, bearer) {
  const out = [];
  for (const [i, [method, p, h, body]] of SAMPLE.entries()) {
    const auth = h === "bearer" ? { authorization: bearer } : typeof h === "string" ? { authorization: h } : h ?? {};
    const url = `http://127.0.0.1:${server.port}/idp${p.replace("{sub}", sub)}`;
    const res = await fetch(url, { method, headers: { ...auth, "x-request-id": `probe-${i}-0000` }, body, redirect: "manual" });
    const text = await res.text();
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !VOLATILE.has(k)));
    // Tokens, ids and times differ between servers; their shape is what must match.
    const shape = text.replace(/"(access_token|id|created|updated|iat|exp|jti|time|generated_at)":\s*("[^"]*"|\d+)/g, '"$1":…').replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, "JWT").replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT");
    out.push({ req: `${method} ${p}`, status: res.status, headers, body: shape.slice(0, 300) });
  }
  await new Promise((r) => setTimeout(r, 300));
  const lines = server.output().split("\n").filter((l) => l.includes('"probe-')).map((l) => {
    const { time: _time, ms: _ms, ...rest } = JSON.parse(l);
    return rest;
  });
  return { out, lines };
}

const results = {};
const samples = {};
// fast: server/serve with the fast path; next: the same server with IDP_FAST_PATH=0; next-start: `next start`.
const MODES = (process.env.PROBE_MODES ?? "fast,next,next-start").split(",");
for (const mode of MODES) {
  const logFile = path.join(dataDir, `server-${mode}.log`);
  const server = await startServer({
    env: { ...env, IDP_FAST_PATH: mode === "fast" ? "1" : "0", IDP_LOG_LEVEL: "debug" },
    entry: mode === "next-start" ? [nextBin, "start"] : entry,
    logFile,
  });
  try {
    const res = await fetch(`${server.baseUrl}/oauth/te`, { method: "POST", headers: form, body: grant });
    const bearer = `Bearer ${(await res.json()).access_token}`;
    const subs = await sampleSubs(server.baseUrl, basicRest, 200);
    samples[mode] = await sample(server, subs[0], bearer);
    const opens = server.output().split("\n").filter((l) => l.includes('"database opened"')).length;
    console.log(`${mode}: ${server.output().split("\n").find((l) => l.includes('"listening"'))}; database opened ${opens}×; RSS idle ${rssMb(server.pid)} MB`);
    const cp = new URL(server.baseUrl).pathname;
    const paths = subs.map((s) => `${cp}/api/v3/users/${s}/state`);
    const runs = {
      "GET /health/live": () => load(`${server.baseUrl}/health/live`),
      "POST /oauth/te": () => load(`${server.baseUrl}/oauth/te`, { method: "POST", headers: form, body: grant }),
      "GET state (bearer, cached)": () => load(server.baseUrl, rotating(paths, { authorization: bearer })),
    };
    // Warm-up: JIT, caches filled for every sub the read walks.
    await load(`${server.baseUrl}/health/live`, { duration: 2 });
    await load(server.baseUrl, { ...rotating(paths, { authorization: bearer }), amount: paths.length });
    for (const [name, run] of Object.entries(runs)) {
      const c0 = cpuOf(server.pid);
      const r = await run();
      const c1 = cpuOf(server.pid);
      const bad = r.non2xx + r.errors + r.timeouts;
      (results[name] ??= {})[mode] = { rps: Math.round(r.requests.average), p99: r.latency.p99, cpuUs: Math.round(((c1 - c0) / r.requests.total) * 1000), bad };
      console.log(`  ${mode} ${name}: ${results[name][mode].rps} req/s, p99 ${r.latency.p99} ms, ${results[name][mode].cpuUs} µs CPU/request, ${bad} not 2xx`);
    }
    console.log(`  RSS after load ${rssMb(server.pid)} MB`);
  } finally {
    await server.stop();
  }
}
await pgDb?.drop();

const byId = (lines) => new Map(lines.map((l) => [l.requestId, JSON.stringify(l)]));
console.log(`sample (fast): ${samples.fast.out.map((o) => `${o.req} ${o.status}`).join("; ")}`);
for (const other of MODES.filter((m) => m !== "fast" && samples[m])) {
  let diffs = 0;
  for (const [i, a] of samples.fast.out.entries()) {
    const b = samples[other].out[i];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      diffs++;
      console.log(`DIFF ${a.req}\n  fast: ${JSON.stringify(a)}\n  ${other}: ${JSON.stringify(b)}`);
    }
  }
  const lf = byId(samples.fast.lines), lo = byId(samples[other].lines);
  for (const id of new Set([...lf.keys(), ...lo.keys()])) {
    if (lf.get(id) !== lo.get(id)) {
      diffs++;
      console.log(`LOG DIFF ${id}\n  fast: ${lf.get(id)}\n  ${other}: ${lo.get(id)}`);
    }
  }
  console.log(`equivalence sample fast vs ${other}: ${SAMPLE.length} requests, ${lf.size} log lines, ${diffs} differences`);
}
console.log(`\n| request | ${MODES.map((m) => `${m} req/s | ${m} µs CPU/req`).join(" | ")} |\n|---|${MODES.map(() => "---|---|").join("")}`);
for (const [name, r] of Object.entries(results)) {
  console.log(`| ${name} | ${MODES.map((m) => `${r[m].rps} (p99 ${r[m].p99} ms) | ${r[m].cpuUs}`).join(" | ")} |`);
}
