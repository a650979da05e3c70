// Shared by the start script and the test/bench harnesses: build only when the build is missing or
// stale (changed sources, or a new IDP_CONTEXT_PATH, which Next fixes at build time).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseContextPath } from "../server/config/context-path.mjs";

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
/** The production server: `npm start` and every harness run it (fast path + Next's custom-server API). */
export const serverEntry = path.join(root, "server", "serve", "server.mjs");
const marker = path.join(root, ".next", "idp-build.json");
/**
 * The CLI (`npm run idp -- …`, server/cli/cli.ts) bundled into one JavaScript file by the build, so
 * that a production install runs it with plain Node: no TypeScript loader among its dependencies.
 * Packages stay imports (`packages: "external"`); cliMeta lists them, and a test holds each to the
 * production dependencies.
 */
export const cliBundle = path.join(root, ".next", "idp-cli", "cli.mjs");
export const cliMeta = path.join(root, ".next", "idp-cli", "meta.json");
const SOURCES = ["app", "server", "components", "next.config.mjs", "package-lock.json", "instrumentation.ts", "proxy.ts", "prisma"];
// The database client is generated from prisma/schema.prisma by every install: its files are new
// after each `npm ci` without being different, and a production install has none.
const GENERATED = path.join(root, "server", "db", "generated");

function newestSource(dir = root, depth = 0) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (depth === 0 && !SOURCES.includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (full === GENERATED) continue;
    // Whole seconds: a copy of the checkout (tar, a container layer) keeps no finer timestamps.
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full, depth + 1) : Math.floor(statSync(full).mtimeMs / 1000));
  }
  return newest;
}

function fingerprint(env) {
  const ctx = parseContextPath(env.IDP_CONTEXT_PATH);
  return JSON.stringify({ contextPath: ctx.ok ? ctx.value : null, sources: newestSource() });
}

// esbuild is a development dependency: required only when a build runs, never by `npm start` on a
// current build.
function bundleCli() {
  const esbuild = createRequire(import.meta.url)("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [path.join(root, "server", "cli", "cli.ts")],
    outfile: cliBundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    metafile: true,
    logLevel: "warning",
  });
  writeFileSync(cliMeta, JSON.stringify(result.metafile));
}

export function build(env = process.env) {
  if (!existsSync(path.join(root, "node_modules", "esbuild"))) {
    console.error("idp: a build needs the development dependencies, which are not installed: run `npm ci`, then `npm run build`");
    process.exit(1);
  }
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  bundleCli();
  writeFileSync(marker, fingerprint(env));
}

/**
 * The bundled CLI when the build is of the current sources (whatever its context path, which the
 * CLI does not depend on); null before the first build and after a source changed, when the CLI runs
 * from its TypeScript sources instead.
 */
export function currentCliBundle() {
  if (!existsSync(cliBundle) || !existsSync(marker)) return null;
  try {
    return JSON.parse(readFileSync(marker, "utf8")).sources === newestSource() ? cliBundle : null;
  } catch {
    return null;
  }
}

export function buildIfStale(env = process.env) {
  const current = existsSync(marker) ? readFileSync(marker, "utf8") : "";
  if (current === fingerprint(env) && existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  console.log("idp: building (first start, changed sources or a new IDP_CONTEXT_PATH)…");
  build(env);
  return true;
}
