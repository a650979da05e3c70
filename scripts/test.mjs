#!/usr/bin/env node
// `npm test`: unit and in-process database tests, then the API suite over real HTTP against the
// production build, on the embedded database and, when TEST_DATABASE_URL is set, on PostgreSQL.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { buildIfStale, root } from "./build-lib.mjs";

const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");

function run(label, args, env = {}) {
  console.log(`\n== ${label}`);
  const r = spawnSync(process.execPath, [vitest, "run", ...args], { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

// The API suite serves the default context path; a developer's own IDP_CONTEXT_PATH must not leak in.
delete process.env.IDP_CONTEXT_PATH;
delete process.env.DATABASE_URL;
// Nor may a developer's real mail server or SMS gateway receive the test runs' messages.
for (const k of ["SMTP_URL", "MAIL_FROM", "SMS_WEBHOOK_URL", "SMS_WEBHOOK_TOKEN"]) delete process.env[k];

const results = [];
results.push(run("unit + database tests", ["--project", "unit"]));
buildIfStale({ ...process.env });
results.push(run("API tests on the embedded database", ["--project", "api"], { IDP_TEST_DB: "embedded" }));
if (process.env.TEST_DATABASE_URL) {
  results.push(run("API tests on PostgreSQL", ["--project", "api"], { IDP_TEST_DB: "postgres" }));
} else {
  console.log("\n== API tests on PostgreSQL skipped: set TEST_DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres)");
}
const failed = results.filter((ok) => !ok).length;
console.log(`\nsuites: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
