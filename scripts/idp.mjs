#!/usr/bin/env node
// Entry point of `npm start`, `npm run build`, `npm run db:migrate` and `npm run idp -- …`.
// `start` validates the configuration, (re)builds when the build is missing or stale (Next's basePath,
// i.e. IDP_CONTEXT_PATH, is fixed at build time), then serves; migrations run inside the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseContextPath } from "../server/config/context-path.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const marker = path.join(root, ".next", "idp-build.json");

function run(args, opts = {}) {
  const r = spawnSync(process.execPath, args, { cwd: root, env, stdio: "inherit", ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function cli(args) {
  run(["--import", "tsx", path.join(root, "server", "cli", "cli.ts"), ...args]);
}

// Newest modification time among the sources a build depends on.
function newestSource(dir = root, depth = 0) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (depth === 0 && !["app", "server", "components", "next.config.mjs", "package-lock.json", "instrumentation.ts"].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full, depth + 1) : statSync(full).mtimeMs);
  }
  return newest;
}

function fingerprint() {
  const ctx = parseContextPath(process.env.IDP_CONTEXT_PATH);
  return JSON.stringify({ contextPath: ctx.ok ? ctx.value : null, sources: newestSource() });
}

function build() {
  run([next, "build"]);
  writeFileSync(marker, fingerprint());
}

function buildIfStale() {
  const current = existsSync(marker) ? readFileSync(marker, "utf8") : "";
  if (current !== fingerprint() || !existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("idp: building (first start, changed sources or a new IDP_CONTEXT_PATH)…");
    build();
  }
}

function serve(mode) {
  const port = process.env.PORT || "3000";
  const child = spawn(process.execPath, [next, mode, "-p", port], { cwd: root, env, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case "start":
    cli(["check-config"]);
    buildIfStale();
    serve("start");
    break;
  case "dev":
    cli(["check-config"]);
    serve("dev");
    break;
  case "build":
    cli(["check-config"]);
    build();
    break;
  case "migrate":
  case "import":
  case "check-config":
    cli([command, ...rest]);
    break;
  default:
    console.error("usage: npm run idp -- start | dev | build | migrate | import <file.json> | check-config");
    process.exit(2);
}
