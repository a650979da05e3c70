#!/usr/bin/env node
// `npm run test:e2e [-- <playwright args>]`: builds when needed, starts the production server on a
// free port with a fresh embedded database and a random administrator password, runs Playwright
// against it, stops it, and exits with Playwright's code.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { buildIfStale, root } from "./build-lib.mjs";
import { findChromium, NO_CHROMIUM } from "./find-chromium.mjs";
import { startMailSink } from "./mail-sink.mjs";
import { startServer } from "./server-lib.mjs";

// The server under test must not pick up the developer's database, import file, public URL or message
// transports (e-mail goes to the run's own SMTP sink; SMS has none and stays in the outbox, where the
// tests read codes), nor a registration mode other than the default; the build must use the default
// context path (/idp).
const DEVELOPER_ENV = ["DATABASE_URL", "IDP_IMPORT", "IDP_PUBLIC_URL", "IDP_CONTEXT_PATH", "IDP_SECRET_KEY", "IDP_DATA_DIR", "IDP_ADMIN_PASSWORD", "IDP_REGISTRATION_MODE", "IDP_RECOVERY"];
const TRANSPORT_ENV = ["SMTP_URL", "MAIL_FROM", "SMS_WEBHOOK_URL", "SMS_WEBHOOK_TOKEN"];
for (const k of [...DEVELOPER_ENV, ...TRANSPORT_ENV]) {
  delete process.env[k];
}

// Said before anything is built or started: a missing browser is an install step, not a test failure.
const chromium = findChromium({ playwrightChromium: createRequire(import.meta.url)("playwright-core").chromium.executablePath() });
if (!chromium) {
  console.error(NO_CHROMIUM);
  process.exit(1);
}
console.log(`e2e: Chromium at ${chromium}`);

/** "spec › title: outcome — first line of the error" for each test that failed or was flaky, from Playwright's JSON report. */
function unsettledTests(reportFile) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8"));
  } catch {
    return [];
  }
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === "expected" || test.status === "skipped") continue;
        const error = test.results?.find((r) => r.error)?.error?.message;
        const firstLine = error ? stripVTControlCharacters(error).split("\n")[0] : "";
        out.push(`  ${spec.file} › ${spec.title}: ${test.status}${firstLine ? ` — ${firstLine}` : ""}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return out;
}

buildIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "idp-e2e-"));
const adminPassword = randomBytes(18).toString("base64url");
const logFile = path.join(dataDir, "server.log");
let code = 1;
let server;
let mailSink;
try {
  // E-mail goes to a real SMTP server on loopback (e2e/support/mail.ts reads what arrived); SMS has
  // no transport, so text messages stay in the outbox, where the console shows them.
  mailSink = await startMailSink(path.join(dataDir, "mail"));
  process.env.SMTP_URL = mailSink.url;
  process.env.MAIL_FROM = "Identity e2e <idp@e2e.test>";
  // e2e/fixtures/import.json: the applications and accounts the sign-in specs act through. Self
  // sign-up is on, so that e2e/sign-in-pages.spec.ts can sign people up through the page.
  const seed = path.join(root, "e2e", "fixtures", "import.json");
  // Sensitive portal changes need a sign-in at most this old: long enough for every spec that changes
  // a password or a second factor right after signing in, short enough for e2e/portal-step-up.spec.ts
  // to outwait it.
  const reauthMaxAge = "30";
  server = await startServer({ env: { IDP_DATA_DIR: dataDir, IDP_ADMIN_PASSWORD: adminPassword, IDP_IMPORT: seed, IDP_SELF_SIGNUP: "on", IDP_REAUTH_MAX_AGE: reauthMaxAge }, logFile, publicHost: "localhost" });
  console.log(`e2e: server ready at ${server.baseUrl}`);
  const report = path.join(root, "test-results", "report.json");
  rmSync(report, { force: true });
  const pw = spawnSync(path.join(root, "node_modules", ".bin", "playwright"), ["test", ...process.argv.slice(2)], {
    cwd: root,
    env: { ...process.env, E2E_CHROMIUM: chromium, E2E_BASE_URL: server.baseUrl, E2E_ADMIN_PASSWORD: adminPassword, E2E_MAIL_DIR: path.join(dataDir, "mail"), E2E_REAUTH_MAX_AGE: reauthMaxAge },
    stdio: "inherit",
  });
  code = pw.status ?? 1;
  // The server's last lines explain most failures; they hold no secrets (none are ever logged).
  if (code !== 0) console.error(`e2e: last server output:\n${server.output().split("\n").slice(-100).join("\n")}`);
  // Then, last of all (what a truncated CI log keeps), which tests failed or needed their retry.
  const trouble = unsettledTests(report);
  if (trouble.length) console.error(`e2e: not passed at the first try:\n${trouble.join("\n")}`);
} catch (e) {
  console.error(`e2e: ${e.message}`);
} finally {
  await server?.stop();
  mailSink?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
