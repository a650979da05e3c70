// Shared by the start script and the test/bench harnesses: build only when the build is missing or
// stale (changed sources, or a new IDP_CONTEXT_PATH, which Next fixes at build time).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseContextPath } from "../server/config/context-path.mjs";

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
/** The production server: `npm start` and every harness run it (fast path + Next's custom-server API). */
export const serverEntry = path.join(root, "server", "serve", "server.mjs");
const marker = path.join(root, ".next", "idp-build.json");
const SOURCES = ["app", "server", "components", "next.config.mjs", "package-lock.json", "instrumentation.ts", "proxy.ts"];

function newestSource(dir = root, depth = 0) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (depth === 0 && !SOURCES.includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full, depth + 1) : statSync(full).mtimeMs);
  }
  return newest;
}

function fingerprint(env) {
  const ctx = parseContextPath(env.IDP_CONTEXT_PATH);
  return JSON.stringify({ contextPath: ctx.ok ? ctx.value : null, sources: newestSource() });
}

export function build(env = process.env) {
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(marker, fingerprint(env));
}

export function buildIfStale(env = process.env) {
  const current = existsSync(marker) ? readFileSync(marker, "utf8") : "";
  if (current === fingerprint(env) && existsSync(path.join(root, ".next", "BUILD_ID"))) return false;
  console.log("idp: building (first start, changed sources or a new IDP_CONTEXT_PATH)…");
  build(env);
  return true;
}
