// Shared by the start script and the test/bench harnesses: build only when the build is missing or
// stale (changed sources, or a new IDP_CONTEXT_PATH, which Next fixes at build time).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
// The database client is generated from prisma/schema.prisma (a source) by every install and every
// build: a production install has none, and the build carries it.
const GENERATED = path.join(root, "server", "db", "generated");

/**
 * A digest of the sources' paths and contents (about 800 files, 0.1 s). Contents, not times: npm
 * prune rewrites package-lock.json unchanged, a copy of the checkout gets new times, and a file
 * deleted or moved leaves no newer time behind.
 */
function sourceDigest() {
  const digest = createHash("sha256");
  const walk = (dir, depth) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (depth === 0 && !SOURCES.includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (full === GENERATED) continue;
      if (entry.isDirectory()) walk(full, depth + 1);
      else digest.update(`${path.relative(root, full)}\0`).update(createHash("sha256").update(readFileSync(full)).digest());
    }
  };
  walk(root, 0);
  return digest.digest("hex");
}

function fingerprint(env) {
  const ctx = parseContextPath(env.IDP_CONTEXT_PATH);
  return JSON.stringify({ contextPath: ctx.ok ? ctx.value : null, sources: sourceDigest() });
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
  // Taken before building: a file changed while the build runs makes the next start build again.
  const built = fingerprint(env);
  // The database client the build compiles in is the schema's as it is now, not the last install's.
  const generate = spawnSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"], { cwd: root, stdio: "inherit" });
  if (generate.status !== 0) process.exit(generate.status ?? 1);
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  bundleCli();
  writeFileSync(marker, built);
}

/**
 * The bundled CLI when the build is of the current sources (whatever its context path, which the
 * CLI does not depend on); null before the first build and after a source changed, when the CLI runs
 * from its TypeScript sources instead.
 */
export function currentCliBundle() {
  if (!existsSync(cliBundle) || !existsSync(marker)) return null;
  try {
    return JSON.parse(readFileSync(marker, "utf8")).sources === sourceDigest() ? cliBundle : null;
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
