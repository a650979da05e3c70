#!/usr/bin/env node
// `npm test`: unit and in-process database tests, then the API suite over real HTTP against the
// production build, on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL.
// The two API runs share the build and nothing else (each starts its own server on a free port with
// its own databases), so they run side by side: most of their time is spent waiting on the servers,
// and the whole run stays well inside CI's budget. The embedded run prints as it goes; the PostgreSQL
// run's output is held and printed whole when it ends, so that the two never interleave.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildIfStale, root } from "./build-lib.mjs";

const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");

/** Prints as it goes. Not spawnSync: the held run's pipes must be read meanwhile, or it stalls on a full pipe. */
function runLive(label, args, env = {}) {
  console.log(`\n== ${label}`);
  const child = spawn(process.execPath, [vitest, "run", ...args], { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return new Promise((resolve) => child.on("close", (code) => resolve(code === 0)));
}

/** Runs in the background; resolves with its exit status and everything it printed. */
function runHeld(args, env = {}) {
  const child = spawn(process.execPath, [vitest, "run", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const chunks = [];
  child.stdout.on("data", (d) => chunks.push(d));
  child.stderr.on("data", (d) => chunks.push(d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ ok: code === 0, output: Buffer.concat(chunks).toString() })));
}

// The API suite serves the default context path; a developer's own IDP_CONTEXT_PATH must not leak in.
delete process.env.IDP_CONTEXT_PATH;
delete process.env.DATABASE_URL;
// Nor may a developer's real mail server or SMS gateway receive the test runs' messages.
for (const k of ["SMTP_URL", "MAIL_FROM", "SMS_WEBHOOK_URL", "SMS_WEBHOOK_TOKEN"]) delete process.env[k];

const results = [];
results.push(await runLive("unit + database tests", ["--project", "unit"]));
buildIfStale({ ...process.env });
const onPostgres = process.env.TEST_DATABASE_URL ? runHeld(["--project", "api"], { IDP_TEST_DB: "postgres" }) : undefined;
results.push(await runLive(`API tests on the embedded database${onPostgres ? " (the PostgreSQL run goes on beside it)" : ""}`, ["--project", "api"], { IDP_TEST_DB: "embedded" }));
if (onPostgres) {
  const pg = await onPostgres;
  console.log("\n== API tests on PostgreSQL (run beside the embedded run)");
  process.stdout.write(pg.output);
  results.push(pg.ok);
} else {
  console.log("\n== API tests on PostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)");
}
const failed = results.filter((ok) => !ok).length;
console.log(`\nsuites: ${results.length - failed} passed, ${failed} failed`);
// exitCode, not process.exit(): stdout is a pipe in CI, and exiting at once would cut off the held
// output that is still on its way into it.
process.exitCode = failed ? 1 : 0;
