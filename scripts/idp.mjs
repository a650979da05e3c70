#!/usr/bin/env node
// Entry point of `npm start`, `npm run build`, `npm run db:migrate` and `npm run idp -- …`.
// `start` validates the configuration, (re)builds when the build is missing or stale (Next's basePath,
// i.e. IDP_CONTEXT_PATH, is fixed at build time), then serves; migrations run inside the server.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { withThreadPool } from "../server/serve/threadpool.mjs";
import { build, buildIfStale, currentCliBundle, nextBin, root, serverEntry } from "./build-lib.mjs";

// UV_THREADPOOL_SIZE: server/serve/threadpool.mjs says why it is set before the server starts.
const env = withThreadPool({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" });

/**
 * How the CLI runs: the build's bundle when it is of the current sources (a production install has
 * no TypeScript loader), otherwise from its sources through tsx, a development dependency.
 */
function cliCommand() {
  const bundle = currentCliBundle();
  if (bundle) return [bundle];
  if (existsSync(path.join(root, "node_modules", "tsx"))) return ["--import", "tsx", path.join(root, "server", "cli", "cli.ts")];
  console.error("idp: there is no build of these sources, and the development dependencies that make one are not installed: run `npm ci` and `npm run build` first");
  process.exit(1);
}

function cli(args) {
  const r = spawnSync(process.execPath, [...cliCommand(), ...args], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// `start` runs the production server of server/serve/ (the catalog's operations on the fast path,
// the rest through Next's custom-server API; IDP_FAST_PATH=0 sends everything to Next); `dev` is `next dev`.
function serve(mode) {
  const port = process.env.PORT || "3000";
  const entry = mode === "start" ? [serverEntry] : [nextBin, mode];
  const child = spawn(process.execPath, [...entry, "-p", port], { cwd: root, env, stdio: "inherit" });
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
  default:
    // Every other command (migrate, import, rotate-signing-key …) runs in server/cli/cli.ts, which
    // prints the usage for an unknown one.
    cli([command ?? "", ...rest]);
}
